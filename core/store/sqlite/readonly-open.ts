/**
 * Opening a store read-only without changing anything beside it.
 *
 * A read-only SQLite connection to a WAL-mode file needs the `-wal` and `-shm` files: it creates
 * them when they are missing, and, unable to checkpoint, leaves them behind when it closes. In a
 * folder it cannot write it cannot create them, so the store cannot be read at all. (The usual cure,
 * a `file:…?immutable=1` URI, is not available: this SQLite build does not interpret URIs.)
 * No `-shm` means no connection has the file open. Then:
 *  1. without a `-wal` either, and with a file this process may write, it is opened writable but
 *     `query_only`: no statement can change it, and as the last connection it removes the
 *     `-wal`/`-shm` it made when it closes;
 *  2. otherwise (a `-wal` left over by a process that is gone, or a write-protected file) it is read
 *     from a snapshot (below), which adds nothing beside the store.
 * With a `-shm` present another connection owns those files, and a plain read-only connection joins
 * it. When that cannot open (an unwritable folder), the snapshot again: the store and its `-wal` are
 * copied to a private temporary folder, folded into one image there, and that image is read from
 * memory. The caller is warned, because later writes by others are not seen.
 */
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, openSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';

type DB = Database.Database;

/** Opens `target` (a path, or a serialized image) and runs a first read; throws SQLite's own error. */
export type RawOpen = (target: string | Buffer, mode: 'readonly' | 'query_only') => DB;

export function openReadonly(path: string, open: RawOpen, warn: (message: string) => void): DB {
  const snapshot = (why: string): DB => {
    const db = openSnapshot(path, open);
    warn(`${path}: ${why}, so it is read from a snapshot taken now (changes made later by others are not seen until it is reopened)`);
    return db;
  };
  const unwritableFolder = 'it is in a folder this process cannot write, where SQLite cannot read a WAL-mode store in place';
  if (isWalMode(path) && !existsSync(`${path}-shm`)) {
    if (!isWritable(dirname(path))) return snapshot(unwritableFolder);
    if (existsSync(`${path}-wal`)) return snapshot('a -wal file was left by a process that is gone, and reading it in place would add a -shm file beside it');
    if (!isWritable(path)) return snapshot('it is write-protected, and reading it in place would leave -wal and -shm files beside it');
    try {
      return open(path, 'query_only');
    } catch (err) {
      if (!cannotOpenBeside(err)) throw err;
      return snapshot(unwritableFolder);
    }
  }
  try {
    return open(path, 'readonly');
  } catch (err) {
    // A file this process may not even read is refused as it is (a copy could not be made either).
    if (!cannotOpenBeside(err) || !hasAccess(path, constants.R_OK)) throw err;
    return snapshot(unwritableFolder);
  }
}

/** The failures of a connection that cannot create or use the files beside the store. */
function cannotOpenBeside(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_IOERR_LOCK');
}

function openSnapshot(path: string, open: RawOpen): DB {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-snapshot-'));
  try {
    const copy = join(dir, 'store.sqlite');
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    // On the private copy only: replay its WAL and leave one self-contained image to read from memory.
    const scratch = open(copy, 'query_only');
    let image: Buffer;
    try {
      scratch.pragma('query_only = OFF');
      scratch.pragma('journal_mode = DELETE');
      image = scratch.serialize();
    } finally {
      scratch.close();
    }
    return open(image, 'readonly');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes 18 and 19 of the header are 2 in WAL mode. */
function isWalMode(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(20);
    return readSync(fd, buf, 0, 20, 0) === 20 && buf[18] === 2 && buf[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function isWritable(path: string): boolean {
  return hasAccess(path, constants.W_OK);
}

function hasAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
