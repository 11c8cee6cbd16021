/**
 * Opens the store a location names, whichever backend holds it: a `postgres://…?schema=name` URL
 * opens a PostgreSQL store (pg/pg-store.ts), anything else a SQLite file (store.ts). Every door
 * (CLI, API, MCP, workbench) opens stores through the engine, and the engine through this, so all
 * of them accept either kind of location where they accept a store.
 */
import { PgStore, type PgOpenOptions } from './pg/pg-store.js';
import { isPgUrl } from './pg/pg-url.js';
import { MemoryStore, type OpenOptions } from './sqlite/sqlite-store.js';

/** An open store of either adapter: the port's reads and writes plus what the engine asks of its store. */
export type OpenedStore = MemoryStore | PgStore;

export { isPgUrl as isPostgresLocation };

export function openStoreAt(location: string, opts: OpenOptions = {}): OpenedStore {
  if (!isPgUrl(location)) return MemoryStore.open(location, opts);
  // `convert` (mnemo init on an existing non-store file) has no PostgreSQL meaning: init makes the
  // store in an absent or empty schema, and a schema holding other tables is refused either way.
  return PgStore.open(location, {
    ...pgOptions(opts),
    ...(opts.create !== undefined ? { create: opts.create } : {}),
    ...(opts.readonly !== undefined ? { readonly: opts.readonly } : {}),
  });
}

/** The open options both kinds of PostgreSQL open take from SQLite's. */
function pgOptions(opts: OpenOptions): PgOpenOptions {
  return {
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.initialProfile ? { initialProfile: opts.initialProfile } : {}),
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    ...(opts.dim !== undefined ? { dim: opts.dim } : {}),
    ...(opts.journalFollowUps ? { journalFollowUps: opts.journalFollowUps } : {}),
  };
}

/** The store as it stood at instant `at`, read-only: either backend rolls its change feed back (history-views.ts, pg/pg-history-views.ts). */
export function openStoreAsOf(location: string, at: number, opts: Omit<OpenOptions, 'readonly' | 'convert' | 'create'> = {}): OpenedStore {
  if (!isPgUrl(location)) return MemoryStore.openAsOf(location, at, opts);
  return PgStore.openAsOf(location, at, pgOptions(opts));
}
