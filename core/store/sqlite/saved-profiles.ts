/**
 * Saved scoring profiles: rows of `mnemo_profiles` (name, the profile it started from, its full
 * knobs and features as JSON) and the store's default profile (`mnemo_meta` 'profile'). Both are
 * journal targets, so saving, deleting and setting the default are changes like any other: undo
 * removes a saved profile, and undoing a "set default" brings the previous default back.
 *
 * This module stores and restores rows; it does not judge a profile's JSON (the recall room's
 * schema does, at the door and again on every read, since another process may have written it).
 *
 * The default must always name a profile that exists. Deleting the default is refused up front;
 * the journal keeps the rest: setting the default also stamps `default_since` on the saved rows
 * it concerns (the new default's, and the previous one's, cleared), so the change touches those
 * rows, and the journal's own rule (a change cannot be undone while a later change touched its
 * rows) refuses undoing the save of the default, or undoing a "set default" back to a profile
 * deleted since. A restore never has to refuse anything mid-way.
 */
import { isBuiltinProfile } from '../../model/profile-names.js';
import { connectionOf, statementOf } from './connection.js';
import type { JournalledStore, JournalTarget } from '../shared/journal.js';
import { hasMigration } from './migrations.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { RowSource } from '../shared/store-handle.js';

/** Built in, never stored: they cannot be overwritten, deleted or shadowed. */

/** The `mnemo_meta` key holding the store's default profile. */
export const DEFAULT_PROFILE_KEY = 'profile';

export interface SavedProfileRow {
  name: string;
  base: string;
  /** JSON text of `{ knobs, features }`. */
  config: string;
  created_at: number;
  updated_at: number;
  /** When it became the store's default (null: it is not the default). */
  default_since: number | null;
}

const COLS = 'name, base, config, created_at, updated_at, default_since';
const INSERT = `INSERT OR REPLACE INTO mnemo_profiles(${COLS}) VALUES (@name, @base, @config, @created_at, @updated_at, @default_since)`;

function hasTable(db: DB): boolean {
  return hasMigration(db, '008-saved-profiles');
}

function rowIn(db: DB, name: string): SavedProfileRow | null {
  if (!hasTable(db)) return null;
  return (cachedStatement(db, `SELECT ${COLS} FROM mnemo_profiles WHERE name = ?`).get(name) as SavedProfileRow | undefined) ?? null;
}

function readsNothing(store: RowSource & { hasMnemo(): boolean }): boolean {
  return !store.hasMnemo() || !hasTable(connectionOf(store));
}

export function savedProfileRow(store: RowSource & { hasMnemo(): boolean }, name: string): SavedProfileRow | null {
  if (readsNothing(store)) return null;
  return rowIn(connectionOf(store), name);
}

export function savedProfileRows(store: RowSource & { hasMnemo(): boolean }): SavedProfileRow[] {
  if (readsNothing(store)) return [];
  return statementOf(store, `SELECT ${COLS} FROM mnemo_profiles ORDER BY name`).all() as SavedProfileRow[];
}

/** Writes a saved profile inside the open change (journalled). */
export function writeSavedProfile(store: JournalledStore, row: SavedProfileRow): void {
  store.ensureMnemo();
  store.journal.capture(`profile:${row.name}`);
  statementOf(store, INSERT).run(row);
}

/** Deletes a saved profile inside the open change (journalled). The caller has refused the default. */
export function deleteSavedProfile(store: JournalledStore, name: string): void {
  store.ensureMnemo();
  store.journal.capture(`profile:${name}`);
  statementOf(store, 'DELETE FROM mnemo_profiles WHERE name = ?').run(name);
}

/** Sets the store's default profile inside the open change (journalled), stamping the saved rows it concerns. */
export function writeDefaultProfile(store: JournalledStore, name: string): void {
  // Prepared when first used, after ensureMnemo has made the table.
  setDefaultProfileWith(store, name, (profile, since) => void statementOf(store, 'UPDATE mnemo_profiles SET default_since = ? WHERE name = ?').run(since, profile));
}

/**
 * The rule of setting the default, for either adapter (`stamp` writes one saved row's
 * `default_since`): the meta value and the saved rows it concerns are captured and written in
 * the open change.
 */
export function setDefaultProfileWith(
  store: Pick<JournalledStore, 'ensureMnemo' | 'getMeta' | 'setMeta' | 'clock'> & { journal: { capture(key: string): void } },
  name: string,
  stamp: (profile: string, since: number | null) => void,
): void {
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

function metaValue(db: DB, key: string): string | null {
  return (cachedStatement(db, 'SELECT value FROM mnemo_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
}

/** Journal rows `profile:<name>`: one saved profile. */
export const savedProfileTarget: JournalTarget = {
  ns: 'profile',
  snapshot: (store, name) => rowIn(connectionOf(store), name),
  restore(store, name, image) {
    const db = connectionOf(store);
    if (image === null) cachedStatement(db, 'DELETE FROM mnemo_profiles WHERE name = ?').run(name);
    else cachedStatement(db, INSERT).run(image as SavedProfileRow);
  },
};

/**
 * Journal rows `meta:<key>`: one `mnemo_meta` value, as `{ value }`. Only keys a change captures
 * are journalled (today the default profile); bookkeeping keys are written outside changes.
 */
export const metaTarget: JournalTarget = {
  ns: 'meta',
  snapshot: (store, key) => {
    const value = metaValue(connectionOf(store), key);
    return value === null ? null : { value };
  },
  restore(store, key, image) {
    const db = connectionOf(store);
    if (image === null) cachedStatement(db, 'DELETE FROM mnemo_meta WHERE key = ?').run(key);
    else cachedStatement(db, 'INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES (?, ?)').run(key, (image as { value: string }).value);
  },
};
