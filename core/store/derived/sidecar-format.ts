/**
 * The index sidecar's file (index-sidecar.ts) as SQLite holds it: the format it is written in, its
 * tables, and opening it. A file written by another format is started over, when this process may
 * write it, since it only ever holds what can be rebuilt; a damaged one is removed, with its WAL
 * and its parts, for the caller to start a new one.
 */
import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DB } from '../sqlite/sqlite.js';
import { HOLDER_SCHEMA } from './sidecar-holders.js';
import { removePartsDir } from './snapshot-file.js';

/**
 * Bump when the file's tables or the parts' files change; `le`: typed arrays are stored
 * little-endian. 2: the parts moved out of SQLite blobs into a file per generation. 3: a CRC per
 * 4 KB block of each part (read a part's bytes, or some of them, when first needed).
 */
const SIDECAR_FORMAT = 'mnemo-index/3/le';
const MMAP_BYTES = 2 * 1024 * 1024 * 1024;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sidecar_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_generation (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, started_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot (
    name TEXT PRIMARY KEY, generation INTEGER NOT NULL, format TEXT NOT NULL, conditions TEXT NOT NULL,
    epoch TEXT NOT NULL, seq INTEGER NOT NULL, written_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS snapshot_part (
    generation INTEGER NOT NULL, part TEXT NOT NULL, offset INTEGER NOT NULL, bytes INTEGER NOT NULL, crc INTEGER NOT NULL,
    PRIMARY KEY (generation, part));
`;

/**
 * The sidecar's connection, its file created when missing and `writable`, its tables ready (or
 * started over: prepareTables). Throws when the file cannot be used; isDamage tells a damaged one.
 */
export function openSidecarFile(path: string, writable: boolean, nativeBinding: string | undefined): DB {
  // A cache folder (a PostgreSQL store's, pg-index-cache.ts) may not exist yet; only its user reads it.
  if (writable) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path, { readonly: !writable, fileMustExist: !writable, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 5000');
    // The list's text search (an FTS5 table here) reads many pages per query: a memory map
    // and big pages spare it a read() call per 4 KB page (page_size only takes on a new, empty file).
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    if (writable) {
      db.pragma('page_size = 65536');
      db.pragma('journal_mode = WAL');
      // A lost snapshot is rebuilt, so the sidecar need not sync every commit to disk.
      db.pragma('synchronous = NORMAL');
    }
    prepareTables(db, path, writable);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Creates the tables, or starts over when the file was written by another format. */
function prepareTables(db: DB, path: string, writable: boolean): void {
  const { hasMeta, format } = formatIn(db);
  if (format === SIDECAR_FORMAT) {
    if (writable) db.exec(HOLDER_SCHEMA);
    return;
  }
  if (!writable) throw new Error(hasMeta ? `written by another format (${format ?? 'none'})` : 'not an index file');
  const startedOver = db
    .transaction(() => {
      // Looked at again under the write lock: processes opening a new file at once all saw no
      // format above, and only the first may start it (a second would drop the tables and the
      // files the first has begun writing since).
      const current = formatIn(db);
      if (current.format === SIDECAR_FORMAT) return false;
      if (current.hasMeta) {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
        for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.replace(/"/g, '""')}"`);
      }
      db.exec(SCHEMA);
      db.exec(HOLDER_SCHEMA);
      db.prepare("INSERT OR REPLACE INTO sidecar_meta(key, value) VALUES ('format', ?)").run(SIDECAR_FORMAT);
      // Before the commit: once it is visible, another process may begin a generation's file in there.
      removePartsDir(path);
      return true;
    })
    .immediate();
  // An earlier format's blobs leave the file ~100 MB of free pages: give them back, once.
  if (startedOver && hasMeta) db.exec('VACUUM');
}

/** Whether the file has its meta table, and the format it names (undefined: none). */
function formatIn(db: DB): { hasMeta: boolean; format: string | undefined } {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sidecar_meta'").get() !== undefined;
  const format = hasMeta ? (db.prepare("SELECT value FROM sidecar_meta WHERE key = 'format'").pluck().get() as string | undefined) : undefined;
  return { hasMeta, format };
}

/** Whether this process may create or write the sidecar at `path` (and its -wal and parts beside it). */
export function mayWriteBeside(path: string): boolean {
  try {
    accessSync(dirname(path), constants.W_OK);
    if (existsSync(path)) accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether opening the file failed because it is not (or no longer) a SQLite database. */
export function isDamage(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT'));
}

/** Removes the sidecar's file, its WAL and shared memory, and its parts' folder. */
export function removeSidecarFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(p)) unlinkSync(p);
  removePartsDir(path);
}
