/**
 * Saved scoring profiles (`mnemo_profiles`: name, the profile it started from, its full knobs and
 * features as JSON) and the store's default profile (`mnemo_meta` 'profile'), read and written once
 * for both backends (port/store-sql.ts). The reads find none before the table exists (a nooa file,
 * or one opened read-only before the migration that makes it).
 *
 * The writes are journal targets (each adapter restores the rows), written inside the caller's
 * `store.change`, so saving, deleting and setting the default are changes like any other: undo
 * removes a saved profile, and undoing a "set default" brings the previous default back. This
 * module stores rows; it does not judge a profile's JSON (the recall room's schema does, at the door
 * and again on every read, since another process may have written it).
 *
 * The default must always name a profile that exists. Deleting the default is refused up front;
 * the journal keeps the rest: setting the default also stamps `default_since` on the saved rows
 * it concerns (the new default's, and the previous one's, cleared), so the change touches those
 * rows, and the journal's own rule (a change cannot be undone while a later change touched its
 * rows) refuses undoing the save of the default, or undoing a "set default" back to a profile
 * deleted since. A restore never has to refuse anything mid-way.
 */
import { isBuiltinProfile } from '../../model/profile-names.js';
import type { ProfileName, StoreReader, StoreWriter } from '../port/port.js';
import type { SavedProfileRow } from '../port/store-rows.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { query } from '../shared/store-query.js';

/** The `mnemo_meta` key holding the store's default profile. */
export const DEFAULT_PROFILE_KEY = 'profile';

const TABLE = 'mnemo_profiles';
const COLUMNS = ['name', 'base', 'config', 'created_at', 'updated_at', 'default_since'] as const;
const COLS = COLUMNS.join(', ');

/** What a write of a saved profile or of the default needs of the store. */
type Writes = Pick<StoreWriter, 'ensureMnemo' | 'journal' | 'sql' | 'getMeta' | 'setMeta' | 'clock'>;

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

/**
 * The store's default scoring profile: recorded in mnemo_meta (a built-in name or a saved
 * profile's), `nooa-0.0.9` for a store without it.
 */
export function defaultProfile(store: Pick<StoreReader, 'getMeta'>): ProfileName {
  return store.getMeta(DEFAULT_PROFILE_KEY) ?? 'nooa-0.0.9';
}

/** Inserts or replaces a saved profile inside the open change (journalled). */
export function putSavedProfile(store: Writes, row: SavedProfileRow): void {
  store.ensureMnemo();
  store.journal.capture(`profile:${row.name}`);
  store.sql.run(query(dialectOf(store.sql).upsert(store.sql.table(TABLE), COLUMNS, ['name']), COLUMNS.map((c) => row[c])));
}

/** Deletes a saved profile inside the open change (journalled). The caller has refused the default. */
export function deleteSavedProfile(store: Writes, name: string): void {
  store.ensureMnemo();
  store.journal.capture(`profile:${name}`);
  store.sql.run(query(`DELETE FROM ${store.sql.table(TABLE)} WHERE name = ?`, [name]));
}

/**
 * Makes `name` (built in or saved) the store's default inside the open change (journalled): the meta
 * value and the saved rows it concerns are captured and written, and `default_since` stamps when
 * the saved one became it (the previous saved default's is cleared).
 */
export function setDefaultProfile(store: Writes, name: string): void {
  const stamp = (profile: string, since: number | null) => store.sql.run(query(`UPDATE ${store.sql.table(TABLE)} SET default_since = ? WHERE name = ?`, [since, profile]));
  store.ensureMnemo();
  const previous = store.getMeta(DEFAULT_PROFILE_KEY);
  store.journal.capture(`meta:${DEFAULT_PROFILE_KEY}`);
  store.setMeta(DEFAULT_PROFILE_KEY, name);
  if (previous !== null && previous !== name && !isBuiltinProfile(previous)) {
    store.journal.capture(`profile:${previous}`);
    stamp(previous, null);
  }
  if (!isBuiltinProfile(name)) {
    store.journal.capture(`profile:${name}`);
    stamp(name, store.clock.now());
  }
}
