/**
 * What a file on disk is, found without changing it: opening a store writes (WAL mode, nooa's
 * tables, mnemo_* tables), so before a writable open we look, through a read-only connection, at
 * whether the file already is a nooa or Mnemo store. Anything else (an empty file, another
 * program's SQLite database such as a browser's cookie file) is left byte for byte as it was
 * unless the user explicitly asks to turn it into a store (`mnemo init`).
 */
import type Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { MnemoError } from '../../errors.js';
import { assertSqliteFile, connect } from './sqlite.js';

export type FileKind = 'missing' | 'empty' | 'store' | 'foreign';

/** A nooa store has `memories(id, content, …)`; a Mnemo store also has `mnemo_meta`. */
function looksLikeStore(db: Database.Database): boolean {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  if (tables.has('mnemo_meta')) return true;
  if (!tables.has('memories')) return false;
  const cols = new Set((db.prepare('PRAGMA table_info(memories)').all() as { name: string }[]).map((c) => c.name));
  return cols.has('id') && cols.has('content');
}

/**
 * Classifies `path`. A directory or a file that is not SQLite is left for the opener's own clear
 * error (reported as 'store' here so it falls through to it).
 */
export function probeStoreFile(path: string, nativeBinding?: string): FileKind {
  if (path === ':memory:' || !existsSync(path)) return 'missing';
  const st = statSync(path);
  if (st.isDirectory()) return 'store';
  if (st.size === 0) return 'empty';
  assertSqliteFile(path);
  let db: Database.Database | null = null;
  try {
    // The store's own read-only opener: it leaves nothing beside a WAL file it looks at (readonly-open.ts).
    db = connect(path, { readonly: true, onWarning: () => {}, ...(nativeBinding ? { nativeBinding } : {}) });
    return looksLikeStore(db) ? 'store' : 'foreign';
  } catch {
    // Unreadable as SQLite: the opener reports it with its own message.
    return 'store';
  } finally {
    db?.close();
  }
}

/** The refusal for a file that is not a store; only an explicit `mnemo init` converts one. */
export function notAStore(path: string, kind: 'empty' | 'foreign'): MnemoError {
  const what = kind === 'empty' ? 'is an empty file' : 'is a SQLite database of another program (it has no nooa or Mnemo tables)';
  return new MnemoError(
    'schema',
    `${path} ${what}, not a memory store; Mnemo opens only existing stores and leaves other files unchanged. To make it a store anyway, run "mnemo init ${path}"`,
    { path, kind },
  );
}
