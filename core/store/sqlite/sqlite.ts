/**
 * Opening a SQLite file safely: a clear error for a missing path or a file that is not SQLite,
 * WAL with a busy timeout so an agent and the workbench can share one file, and a small
 * prepared-statement cache.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { MnemoError, notFound } from '../../errors.js';
import { openReadonly, type RawOpen } from './readonly-open.js';
import { BACKSTOP_PAGES, checkpointsInBackground } from './wal-checkpointer.js';

export type DB = Database.Database;

export interface ConnectOptions {
  readonly?: boolean;
  create?: boolean;
  busyTimeoutMs?: number;
  synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  /**
   * Who moves the WAL into the file: this connection's own commits (`self`, SQLite's default), or a
   * thread of the store's (`background`, wal-checkpointer.ts: for connections that answer people
   * and agents, whose commits then never copy the WAL).
   */
  walCheckpoints?: 'self' | 'background';
  /**
   * Path of a better-sqlite3 addon built for another runtime's ABI (the Electron app passes the
   * copy rebuilt for Electron; Node keeps the default). See docs/packaging.md.
   */
  nativeBinding?: string;
  /** Told when a read-only open had to fall back to a snapshot (see readonly-open.ts). */
  onWarning?: (message: string) => void;
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

export function assertSqliteFile(path: string): void {
  const size = statSync(path).size;
  if (size === 0) return; // SQLite treats an empty file as an empty database
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    readSync(fd, buf, 0, 16, 0);
    if (buf.toString('latin1') !== SQLITE_MAGIC) {
      throw new MnemoError('bad_input', `${path} is not a SQLite database (its header is not "SQLite format 3"); point mnemo at a store file`, {
        path,
      });
    }
  } finally {
    closeSync(fd);
  }
}

export function connect(path: string, opts: ConnectOptions = {}): DB {
  const inMemory = path === ':memory:';
  if (!inMemory) {
    if (!existsSync(path)) {
      if (!opts.create) throw notFound(`no store at ${path}; create one with "mnemo init ${path}" or pass an existing file`, { path });
    } else {
      if (statSync(path).isDirectory()) throw new MnemoError('bad_input', `${path} is a directory, not a store file`, { path });
      assertSqliteFile(path);
    }
  }
  if (opts.readonly && !inMemory) {
    const open: RawOpen = (target, mode) => configure(rawOpen(target, { ...opts, readonly: mode === 'readonly', create: false }), path, opts, mode === 'query_only');
    try {
      return openReadonly(path, open, opts.onWarning ?? ((m) => process.emitWarning(m, { code: 'MNEMO_STORE' })));
    } catch (err) {
      // As for a writable open: a busy or locked store passes through (callers retry); any other failure cannot open it.
      const code = (err as { code?: unknown }).code;
      throw openError(path, err, !(typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))));
    }
  }
  let db: DB;
  try {
    db = rawOpen(path, { ...opts, create: opts.create || inMemory });
  } catch (err) {
    throw openError(path, err, true);
  }
  try {
    return configure(db, path, opts, false);
  } catch (err) {
    throw openError(path, err, false);
  }
}

function rawOpen(target: string | Buffer, opts: ConnectOptions): DB {
  return new Database(target, {
    readonly: opts.readonly ?? false,
    fileMustExist: typeof target === 'string' && !opts.create,
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
  });
}

/** Pragmas and a first read, so a corrupt file fails here; closes the connection when that fails. */
function configure(db: DB, path: string, opts: ConnectOptions, queryOnly: boolean): DB {
  try {
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    if (queryOnly) db.pragma('query_only = ON');
    // A deleted row's bytes are zeroed inside its page (no extra I/O: the page is written anyway),
    // so an erase later finds none left in pages still in use; the pages a delete frees keep theirs
    // until an erase rewrites the free pages (reclaim-worker.ts). docs/erasing.md.
    db.pragma('secure_delete = FAST');
    if (path !== ':memory:' && !opts.readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
    // Checkpoints run on another thread; this connection's own are a backstop only (wal-checkpointer.ts).
    if (checkpointsInBackground(path, opts)) db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    db.pragma('foreign_keys = OFF');
    // Touch the schema now so a corrupt file fails here, with a clear message.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** A file that is not SQLite says so; a failure to open at all is bad input; anything else (busy…) passes through. */
function openError(path: string, err: unknown, cannotOpen: boolean): unknown {
  if (err instanceof MnemoError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return new MnemoError('bad_input', `${path} is not a readable SQLite database (${code})`, { path });
  return cannotOpen ? new MnemoError('bad_input', `cannot open ${path}: ${(err as Error).message}`, { path }) : err;
}

const perConnection = new WeakMap<DB, StatementCache>();

/**
 * A prepared statement kept for the connection's life. For code that is handed a bare connection
 * (journal images, migration checks) and runs once per row of a long change: preparing the same
 * SQL again each time cost more than running it.
 */
export function cachedStatement(db: DB, sql: string): Database.Statement {
  let cache = perConnection.get(db);
  if (!cache) perConnection.set(db, (cache = new StatementCache(db)));
  return cache.get(sql);
}

/** Caches prepared statements by SQL text; better-sqlite3 statements are cheap to keep. */
export class StatementCache {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(private readonly db: DB) {}
  get(sql: string): Database.Statement {
    let st = this.cache.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.cache.set(sql, st);
    }
    return st;
  }
  clear(): void {
    this.cache.clear();
  }
}
