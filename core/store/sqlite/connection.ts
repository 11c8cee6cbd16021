/**
 * The SQLite adapter's private link from an open store to its connection. The store port
 * (port.ts) names no database handle: the modules of core/store/ that run SQL for a store find its
 * connection here. Nothing outside core/store/ may import this file (a dependency-cruiser rule,
 * `store-connection-private`), so no other layer can reach past the port to the database.
 *
 * A WeakMap rather than a property: a property, even a symbol-keyed one, would show in the store's
 * type and in a debugger's view of it; this way the adapter alone holds the key.
 */
import type Database from 'better-sqlite3';
import { MnemoError } from '../../errors.js';
import type { DB } from './sqlite.js';

export interface SqliteConnection {
  readonly db: DB;
  /** A prepared statement from the store's cache (the same SQL text gets the same statement). */
  statement(sql: string): Database.Statement;
  /** The better-sqlite3 addon the store was opened with (Electron's own build), for files opened beside it. */
  readonly nativeBinding?: string;
}

const connections = new WeakMap<object, SqliteConnection>();

/** Called once by the SQLite store as it opens: from then on `connectionOf(store)` finds its connection. */
export function bindConnection(store: object, connection: SqliteConnection): void {
  connections.set(store, connection);
}

function linkOf(store: object): SqliteConnection {
  const link = connections.get(store);
  if (!link) throw new MnemoError('internal', 'this store is not backed by SQLite, so a SQLite query cannot run on it');
  return link;
}

/** The store's open SQLite connection. */
export function connectionOf(store: object): DB {
  return linkOf(store).db;
}

/** A cached prepared statement on the store's connection. */
export function statementOf(store: object, sql: string): Database.Statement {
  return linkOf(store).statement(sql);
}

/** The better-sqlite3 addon path the store was opened with, if not Node's default. */
export function nativeBindingOf(store: object): string | undefined {
  return linkOf(store).nativeBinding;
}

/** The addon path of a SQLite store's connection; undefined for Node's default or a store on another backend. */
export function sqliteBindingOf(store: object): string | undefined {
  return connections.get(store)?.nativeBinding;
}
