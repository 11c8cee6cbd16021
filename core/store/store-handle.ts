/**
 * The part of an open store that the journal, its targets and the change and ingest runs work
 * through. MemoryStore implements it; those modules name this interface instead of MemoryStore so
 * that store.ts can build them at open without an import cycle between the store and its parts.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { DB } from './sqlite.js';

/**
 * What a read of whole tables needs: the open connection. Callers above the store pass the store
 * itself (a MemoryStore is one), so only core/store/ ever touches the connection.
 */
export interface RowSource {
  readonly db: DB;
}

export type ChangeEvent = { kind: 'upsert' | 'delete'; id: string } | { kind: 'reset' };

export interface StoreHandle {
  readonly path: string;
  readonly db: DB;
  readonly clock: Clock;
  readonly readonly: boolean;
  readonly isClosed: boolean;
  statement(sql: string): Database.Statement;
  transaction<T>(fn: () => T): T;
  hasMnemo(): boolean;
  ensureMnemo(): void;
  getMeta(key: string): string | null;
  setMeta(key: string, value: string): void;
  warn(key: string, message: string): void;
  exists(id: string): boolean;
  /** Tells listeners (derived indexes) that a memory changed. */
  emit(e: ChangeEvent): void;
}
