/**
 * Opens the store a location names, whichever backend holds it: a `postgres://…?schema=name` URL
 * opens a PostgreSQL store (pg/pg-store.ts), anything else a SQLite file (store.ts). Every door
 * (CLI, API, MCP, workbench) opens stores through the engine, and the engine through this, so all
 * of them accept either kind of location where they accept a store.
 */
import { MnemoError } from '../errors.js';
import { PgStore } from './pg/pg-store.js';
import { isPgUrl } from './pg/pg-url.js';
import { MemoryStore, type OpenOptions } from './store.js';

/** An open store of either adapter: the port's reads and writes plus what the engine asks of its store. */
export type OpenedStore = MemoryStore | PgStore;

export { isPgUrl as isPostgresLocation };

export function openStoreAt(location: string, opts: OpenOptions = {}): OpenedStore {
  if (!isPgUrl(location)) return MemoryStore.open(location, opts);
  // `convert` (mnemo init on an existing non-store file) has no PostgreSQL meaning: init makes the
  // store in an absent or empty schema, and a schema holding other tables is refused either way.
  return PgStore.open(location, {
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.create !== undefined ? { create: opts.create } : {}),
    ...(opts.readonly !== undefined ? { readonly: opts.readonly } : {}),
    ...(opts.initialProfile ? { initialProfile: opts.initialProfile } : {}),
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    ...(opts.dim !== undefined ? { dim: opts.dim } : {}),
    ...(opts.journalFollowUps ? { journalFollowUps: opts.journalFollowUps } : {}),
  });
}

/** The store as it stood at instant `at`: time travel reads SQLite's change feed, which PostgreSQL stores do not have yet. */
export function openStoreAsOf(location: string, at: number, opts: Omit<OpenOptions, 'readonly' | 'convert' | 'create'> = {}): MemoryStore {
  if (isPgUrl(location)) {
    throw new MnemoError('unsupported', 'time travel (a store as it stood at an instant) is not implemented on PostgreSQL stores yet; copy the store to SQLite (mnemo copy) to read its past', { backend: 'postgres' });
  }
  return MemoryStore.openAsOf(location, at, opts);
}
