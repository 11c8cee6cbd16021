/**
 * The part of an open store that the journal, its targets and the change and ingest runs work
 * through. MemoryStore implements it; those modules name this interface instead of MemoryStore so
 * that sqlite-store.ts can build them at open without an import cycle between the store and its parts.
 * Neither interface names the connection: the modules of core/store/ that run SQL find it with
 * `connectionOf(store)` (connection.ts), which nothing outside core/store/ may import.
 */
import type { Clock } from '../../clock.js';

/**
 * What a read of whole tables takes: an open store of this adapter. Callers above the store pass
 * the store itself (any StoreReader is one).
 */
export interface RowSource {
  readonly path: string;
  readonly isClosed: boolean;
}

export type ChangeEvent = { kind: 'upsert' | 'delete'; id: string } | { kind: 'reset' };

export interface StoreHandle extends RowSource {
  readonly clock: Clock;
  readonly readonly: boolean;
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
