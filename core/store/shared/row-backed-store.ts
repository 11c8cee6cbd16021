/**
 * What both adapters answer alike over their memory rows, written once: ids and prefixes, a memory's
 * edges, the memories of a list scope, and every memory write (memory-writes.ts). A memory's owner,
 * place and embedding, counts over a scope, and the errors of an id that names nothing are read
 * above the port (queries/memory-lookups.ts). Each adapter extends it and gives its rows (MemoryRows: its SQL,
 * and whether a row is locked before a read-modify-write), how it refuses a write and captures a
 * before-image (beforeWrite), and how it reads one memory (get: PostgreSQL locks the row inside a
 * change).
 */
import type { Clock } from '../../clock.js';
import type { Edge, Memory } from '../../model/memory.js';
import { decodeRow, type MemoryRow } from '../port/codec.js';
import type { ChangeEvent } from '../port/store-rows.js';
import type { IncomingEdge, ListScope } from '../port/port.js';
import { resolveMemoryId, type MemoryIdLookups } from './memory-ids.js';
import { StoreMemoryWrites, type MemoryWriteRows } from './memory-writes.js';
import { ScopedReads, type ScopedRows } from './scoped-reads.js';

/** A backend's statements over `memories` and `memory_edges`, as its memory rows module gives them. */
export interface MemoryRows extends MemoryIdLookups, ScopedRows, MemoryWriteRows {
  incoming(id: string): IncomingEdge[];
}

export abstract class RowBackedStore {
  protected abstract readonly rows: MemoryRows;
  abstract readonly dim: number;
  abstract readonly clock: Clock;
  abstract warn(key: string, message: string): void;
  abstract get(id: string): Memory | null;
  abstract transaction<T>(fn: () => T): T;
  abstract ensureMnemo(): void;
  /** Tells listeners that a memory changed. */
  abstract emit(e: ChangeEvent): void;
  /** Before a memory's row is written: refuse on a store that may not be written, and give the open change (if any) its before-image. */
  protected abstract beforeWrite(id: string): void;

  private scopedReads: ScopedReads | undefined;
  private memoryWrites: StoreMemoryWrites | undefined;

  private get scoped(): ScopedReads {
    return (this.scopedReads ??= new ScopedReads(this.rows, (row, edges) => this.decode(row, edges)));
  }

  private get writers(): StoreMemoryWrites {
    return (this.memoryWrites ??= new StoreMemoryWrites(this, this.rows, (id) => this.beforeWrite(id)));
  }

  /** A row as a Memory; a row it cannot read whole is warned of once. */
  protected decode(row: MemoryRow, edges: Edge[]): Memory {
    const { memory, warning } = decodeRow(row, edges);
    if (warning) this.warn(`row:${row.id}`, warning);
    return memory;
  }

  // The id rule (memory-ids.ts: an exact id wins, else a literal prefix of at least 6 characters).
  exists(id: string): boolean {
    return this.rows.exists(id);
  }
  resolveId(idOrPrefix: string): string | null {
    return resolveMemoryId(idOrPrefix, this.rows);
  }
  neighbors(id: string): Edge[] {
    return this.rows.neighbors(id);
  }
  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    return this.rows.edgesFrom(ids);
  }
  incoming(id: string): IncomingEdge[] {
    return this.rows.incoming(id);
  }

  // The memories of a list scope (scoped-reads.ts).
  iter(scope: ListScope = {}, batch = 1000): Generator<Memory> {
    return this.scoped.iter(scope, batch);
  }

  // nooa's add and save, the embedding, archive, delete and edges (memory-writes.ts).
  add(m: Memory, embedding: Float32Array | null): void {
    this.writers.add(m, embedding);
  }
  save(m: Memory): void {
    this.writers.save(m);
  }
  setEmbedding(id: string, embedding: Float32Array | null): void {
    this.writers.setEmbedding(id, embedding);
  }
  setArchived(id: string, archived: boolean): boolean {
    return this.writers.setArchived(id, archived);
  }
  delete(id: string): boolean {
    return this.writers.delete(id);
  }
  addEdge(src: string, dst: string, type: string, weight = 1.0): boolean {
    return this.writers.addEdge(src, dst, type, weight);
  }
  removeEdge(src: string, dst: string, type: string): boolean {
    return this.writers.removeEdge(src, dst, type);
  }
}
