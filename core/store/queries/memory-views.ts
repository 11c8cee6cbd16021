/**
 * Light reads of memories beyond the store's record API, written once for both backends
 * (port/store-sql.ts): recall's owner and status gate, the heads a reflection plan's review filters
 * and sorts on, the near-duplicate finder's candidates, and titles for a page of them. None decodes
 * a whole record; a title is read from the JSON as json_extract reads it (sql-dialect.ts jsonFields).
 */
import type { DuplicateCandidateRow, MemoryHead, OwnerState } from '../port/memory-views.js';
import type { StoreReader } from '../port/port.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { intOf } from '../shared/sql-values.js';
import { paged, query } from '../shared/store-query.js';

type Reads = Pick<StoreReader, 'sql'>;

/** Characters of content kept per review head for the text filter. */
const CONTENT_PREFIX = 300;
const DUPLICATE_COLS = 'id, type, owner, created_at, strength, archived, content';

/** Ids per statement in ownerStates: one statement's list stays small whatever the caller asks (a 1M plan's pairs). */
const OWNER_STATES_CHUNK = 20_000;

/** Owner and archived flag of each id that exists (spread visibility, a plan's pairs), without decoding whole records. */
export function ownerStates(store: Reads, ids: readonly string[]): Map<string, OwnerState> {
  const out = new Map<string, OwnerState>();
  const unique = [...new Set(ids)];
  const d = dialectOf(store.sql);
  for (let i = 0; i < unique.length; i += OWNER_STATES_CHUNK) {
    const part = unique.slice(i, i + OWNER_STATES_CHUNK);
    for (const r of store.sql.all(query(`SELECT id, owner, archived FROM ${store.sql.table('memories')} WHERE ${d.inList('id')}`, [d.idsParam(part)]))) {
      out.set(r['id'] as string, { owner: r['owner'] as string, archived: intOf(r['archived'], 'memories.archived') !== 0 });
    }
  }
  return out;
}

/**
 * The few fields of every memory that the review of a reflection plan filters and sorts on (type,
 * owner, title and the start of the content), in one pass. A 100k store's heads take a few tens of
 * MB and are read once per plan.
 */
export function memoryHeads(store: Reads): Map<string, MemoryHead> {
  const out = new Map<string, MemoryHead>();
  const title = dialectOf(store.sql).jsonFields('data', 'doc', ['title']);
  const rows = store.sql.iterate(paged(`SELECT rowid, id, type, owner, ${title.select}, substr(content, 1, ?) AS content FROM ${store.sql.table('memories')} WHERE TRUE`, [CONTENT_PREFIX], 'rowid'));
  for (const r of rows) {
    const t = title.read(r).title;
    out.set(r['id'] as string, { type: r['type'] as string, owner: (r['owner'] as string | null) ?? '', title: typeof t === 'string' ? t : null, content: (r['content'] as string | null) ?? '' });
  }
  return out;
}

function duplicateRow(r: Record<string, unknown>): DuplicateCandidateRow {
  return {
    id: r['id'] as string,
    type: r['type'] as string,
    owner: r['owner'] as string,
    created_at: r['created_at'] as number,
    strength: intOf(r['strength'], 'memories.strength'),
    archived: intOf(r['archived'], 'memories.archived'),
    content: r['content'] as string,
  };
}

/** The columns the near-duplicate finder groups on, live rows only (an archived copy is already out of the way); content, never the JSON. */
export function* liveDuplicateCandidates(store: Reads): Iterable<DuplicateCandidateRow> {
  for (const r of store.sql.iterate(paged(`SELECT rowid, ${DUPLICATE_COLS} FROM ${store.sql.table('memories')} WHERE archived = 0`, [], 'rowid'))) yield duplicateRow(r);
}

export function duplicateCandidate(store: Reads, id: string): DuplicateCandidateRow | undefined {
  const r = store.sql.get(query(`SELECT ${DUPLICATE_COLS} FROM ${store.sql.table('memories')} WHERE id = ?`, [id]));
  return r ? duplicateRow(r) : undefined;
}

/** Titles for the memories shown on one page of groups. */
export function titlesOf(store: Reads, ids: readonly string[]): Map<string, string | null> {
  if (ids.length === 0) return new Map();
  const d = dialectOf(store.sql);
  const title = d.jsonFields('data', 'doc', ['title']);
  const rows = store.sql.all(query(`SELECT id, ${title.select} FROM ${store.sql.table('memories')} WHERE ${d.inList('id')}`, [d.idsParam(ids)]));
  return new Map(rows.map((r) => [r['id'] as string, title.read(r).title as string | null]));
}
