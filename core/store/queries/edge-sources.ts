/**
 * Edge and entity rows the derived indexes load from, written once above the port for both
 * backends (port/store-sql.ts): every edge, the edges of one type, one memory's targets of one type,
 * and each live memory's entities. Each in insertion order, as nooa reads them.
 */
import type { EdgeType } from '../../model/enums.js';
import type { StoreReader } from '../port/port.js';
import type { SourceEdge } from '../port/source-rows.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { paged, query } from '../shared/store-query.js';

type Reads = Pick<StoreReader, 'sql'>;

/** Every edge, in rowid order, streamed (a page at a time where each read is a round trip). */
export function* allEdges(store: Reads): Generator<SourceEdge> {
  const edges = store.sql.table('memory_edges');
  for (const r of store.sql.iterate(paged(`SELECT rowid, src, dst, type, weight, created_at FROM ${edges} WHERE 1 = 1`, [], 'rowid'))) {
    yield { src: r['src'] as string, dst: r['dst'] as string, type: r['type'] as EdgeType, weight: r['weight'] as number, created_at: r['created_at'] as number };
  }
}

/** The edges of one type, in rowid order. */
export function edgesOfType(store: Reads, type: EdgeType): { src: string; dst: string }[] {
  return store.sql
    .all(query(`SELECT src, dst FROM ${store.sql.table('memory_edges')} WHERE type = ? ORDER BY rowid`, [type]))
    .map((r) => ({ src: r['src'] as string, dst: r['dst'] as string }));
}

/**
 * The targets of one memory's edges of one type, in rowid order: its outgoing edges (store.neighbors,
 * which answers from rows a change holds or a catch-up read ahead where each read is a round trip)
 * of that type.
 */
export function edgeTargets(store: Pick<StoreReader, 'neighbors'>, src: string, type: EdgeType): string[] {
  return store
    .neighbors(src)
    .filter((e) => e.type === type)
    .map((e) => e.target_id);
}

/** Every live memory's entities as JSON text (null when it has none or its JSON is unreadable), in rowid order. */
export function liveEntities(store: Reads): { id: string; entities: string | null }[] {
  const doc = dialectOf(store.sql).jsonFields('data', 'doc', ['entities']);
  const out: { id: string; entities: string | null }[] = [];
  for (const r of store.sql.iterate(paged(`SELECT rowid, id, ${doc.select} FROM ${store.sql.table('memories')} WHERE archived = 0`, [], 'rowid'))) {
    out.push({ id: r['id'] as string, entities: doc.read(r).entities as string | null });
  }
  return out;
}
