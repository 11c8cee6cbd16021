/**
 * The scoring profiles saved in the store (`mnemo_profiles`), read by name: none before the table
 * exists (a nooa file, or one opened read-only before the migration that makes it). Written once
 * for both backends (port/store-sql.ts); their writes are journalled, by the store (StoreWriter).
 */
import type { StoreReader } from '../port/port.js';
import type { SavedProfileRow } from '../port/store-rows.js';
import { query } from '../shared/store-query.js';

const TABLE = 'mnemo_profiles';
const COLS = 'name, base, config, created_at, updated_at, default_since';

type Reads = Pick<StoreReader, 'sql' | 'hasMnemo'>;

const readsNothing = (store: Reads): boolean => !store.hasMnemo() || !store.sql.hasTable(TABLE);

/** A `mnemo_profiles` row as the port gives it (the PostgreSQL journal target's snapshot reads it too). */
export function profileOf(r: Record<string, unknown>): SavedProfileRow {
  return {
    name: r['name'] as string,
    base: r['base'] as string,
    config: r['config'] as string,
    created_at: r['created_at'] as number,
    updated_at: r['updated_at'] as number,
    default_since: r['default_since'] as number | null,
  };
}

export function savedProfile(store: Reads, name: string): SavedProfileRow | null {
  if (readsNothing(store)) return null;
  const row = store.sql.get(query(`SELECT ${COLS} FROM ${store.sql.table(TABLE)} WHERE name = ?`, [name]));
  return row ? profileOf(row) : null;
}

/** Every saved profile, by name. */
export function savedProfiles(store: Reads): SavedProfileRow[] {
  if (readsNothing(store)) return [];
  return store.sql.all(query(`SELECT ${COLS} FROM ${store.sql.table(TABLE)} ORDER BY name`)).map(profileOf);
}
