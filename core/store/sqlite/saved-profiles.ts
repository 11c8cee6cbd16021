/**
 * The SQLite journal targets of saved scoring profiles (`profile:<name>`, a `mnemo_profiles` row)
 * and of `mnemo_meta` values (`meta:<key>`): how a change's rows are snapshotted and restored. The
 * rows themselves are read and written once for both backends (queries/saved-profiles.ts).
 */
import { connectionOf } from './connection.js';
import type { JournalTarget } from '../shared/journal.js';
import { hasMigration } from './migrations.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { SavedProfileRow } from '../port/store-rows.js';

const COLS = 'name, base, config, created_at, updated_at, default_since';
const INSERT = `INSERT OR REPLACE INTO mnemo_profiles(${COLS}) VALUES (@name, @base, @config, @created_at, @updated_at, @default_since)`;

function hasTable(db: DB): boolean {
  return hasMigration(db, '008-saved-profiles');
}

function rowIn(db: DB, name: string): SavedProfileRow | null {
  if (!hasTable(db)) return null;
  return (cachedStatement(db, `SELECT ${COLS} FROM mnemo_profiles WHERE name = ?`).get(name) as SavedProfileRow | undefined) ?? null;
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
