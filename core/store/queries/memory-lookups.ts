/**
 * Reads of memories written once above the port, for both backends: the memory (or id) that what a
 * user typed names, or an error saying why nothing matched; a memory's owner, its place in
 * insertion order and its embedding; and over a list scope (port.ts ListScope), how many memories it holds, whether it
 * holds any, and all of them. Each is one statement over the port's SQL seam (port/store-sql.ts), or
 * a composition of the port's own reads.
 */
import { notFound } from '../../errors.js';
import type { Memory } from '../../model/memory.js';
import { blobToVector } from '../port/codec.js';
import type { ListScope, StoreReader } from '../port/port.js';
import { intOf } from '../shared/sql-values.js';
import { query } from '../shared/store-query.js';

type Reads = Pick<StoreReader, 'sql'>;

/* A scope's count and emptiness are the list scope's own reads (shared/scoped-reads.ts), where the derived indexes reach them too. */
export { countMemories, noMemories } from '../shared/scoped-reads.js';

/** As store.resolveId, but nothing matching is a `not_found` that says why it might not have. */
export function requireMemoryId(store: Pick<StoreReader, 'resolveId'>, idOrPrefix: string): string {
  const id = store.resolveId(idOrPrefix);
  if (id) return id;
  const hint =
    idOrPrefix.length < 6
      ? 'an id prefix needs at least 6 characters'
      : /[%_]/.test(idOrPrefix)
        ? 'ids never contain % or _, and prefixes are matched literally'
        : 'check the id, or list memories with "mnemo list"';
  throw notFound(`no memory matches id ${JSON.stringify(idOrPrefix)}; ${hint}`, { id: idOrPrefix });
}

/** The memory an id or a unique prefix names, or a not_found error naming what was asked. */
export function requireMemory(store: Pick<StoreReader, 'resolveId' | 'get'>, idOrPrefix: string): Memory {
  const m = store.get(requireMemoryId(store, idOrPrefix));
  if (!m) throw notFound(`no memory with id ${idOrPrefix}`, { id: idOrPrefix });
  return m;
}

/** The memory's owner; null when there is no such memory. */
export function memoryOwner(store: Reads, id: string): string | null {
  const row = store.sql.get(query(`SELECT owner FROM ${store.sql.table('memories')} WHERE id = ?`, [id]));
  return row ? (row['owner'] as string) : null;
}

/**
 * The memory's place in insertion order (SQLite's rowid; PostgreSQL keeps an equivalent
 * sequence): nooa breaks ties by it, so a reflection pass run as the reference does needs it.
 * Null when there is no such memory.
 */
export function memoryRowid(store: Reads, id: string): number | null {
  const row = store.sql.get(query(`SELECT rowid FROM ${store.sql.table('memories')} WHERE id = ?`, [id]));
  return row ? intOf(row['rowid'], 'memories.rowid') : null;
}

/** The memory's embedding, archived or not; null when it has none, or one of another dimension than the store's (reported once). */
export function memoryEmbedding(store: Pick<StoreReader, 'sql' | 'dim' | 'warn'>, id: string): Float32Array | null {
  const row = store.sql.get(query(`SELECT embedding FROM ${store.sql.table('memories')} WHERE id = ?`, [id]));
  const blob = (row?.['embedding'] as Uint8Array | null | undefined) ?? null;
  if (!blob) return null;
  const v = blobToVector(blob, store.dim);
  if (!v) store.warn(`emb:${id}`, `memory ${id}: stored embedding has ${blob.byteLength / 4} dimensions, expected ${store.dim}; skipped`);
  return v;
}

/** Every memory of the scope, in insertion order (nooa's iteration order), edges attached. */
export function allMemories(store: Pick<StoreReader, 'iter'>, scope: ListScope = {}): Memory[] {
  return [...store.iter(scope)];
}
