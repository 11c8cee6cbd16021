/**
 * A store's writes of memories and edges: `add` and `save` (nooa's), the embedding, archiving,
 * deleting, renaming an owner, adding and removing an edge. Each is one transaction of the store's;
 * each memory row it changes is first given to the open change as a before-image (`beforeWrite`).
 * Both adapters share this logic; what differs between them is behind `MemoryWriteRows` (their
 * SQL, and whether a row must be locked before a read-modify-write).
 */
import { badInput, notFound } from '../../errors.js';
import { isEdgeType } from '../../model/enums.js';
import { addEdge as addEdgeToMemory, type Edge, type Memory } from '../../model/memory.js';
import { encodeRow, vectorToBlob, type MemoryRow } from '../port/codec.js';
import type { StoreHandle } from './store-handle.js';

type WritingStore = Pick<StoreHandle, 'clock' | 'transaction' | 'ensureMnemo' | 'exists' | 'emit'> & {
  get(id: string): Memory | null;
  save(m: Memory): void;
};

/** The row-level statements the writes need, as each adapter's memory rows module provides them. */
export interface MemoryWriteRows {
  /** Inserts or replaces the row (nooa's INSERT OR REPLACE) with its embedding. */
  replace(r: Omit<MemoryRow, 'rowid' | 'embedding'>, embedding: Uint8Array | null): void;
  /** Updates the row, keeping its embedding; false when there is no such row. */
  update(r: Omit<MemoryRow, 'rowid' | 'embedding'>): boolean;
  /** The row's outgoing edges in insertion order. */
  neighbors(src: string): Edge[];
  replaceEdges(src: string, edges: readonly Edge[]): void;
  setEmbedding(id: string, embedding: Uint8Array | null): void;
  /** False when the row already had that value, or there is no such row. */
  setArchived(id: string, archived: boolean): boolean;
  /** Removes the row and every edge into or out of it; false when there was none. */
  remove(id: string): boolean;
  incoming(id: string): readonly { src: string }[];
  /**
   * Holds the row against other connections' writes until the transaction ends, before a
   * read-modify-write of it: on PostgreSQL's READ COMMITTED another connection's write in between
   * would otherwise be overwritten. SQLite's IMMEDIATE transaction already holds the whole store.
   */
  lock(id: string): void;
}

export class StoreMemoryWrites {
  constructor(
    private readonly store: WritingStore,
    private readonly rows: MemoryWriteRows,
    /** Refuses on a read-only store, and gives the open change (if any) the row's before-image. */
    private readonly beforeWrite: (id: string) => void,
  ) {}

  /** Insert or replace, as nooa's `add`: the row, its edges and its embedding. */
  add(m: Memory, embedding: Float32Array | null): void {
    this.store.transaction(() => {
      this.store.ensureMnemo();
      this.beforeWrite(m.id);
      for (const e of m.edges) {
        if (!isEdgeType(e.type)) throw badInput(`unknown edge type ${JSON.stringify(e.type)}`, { field: 'type' });
      }
      this.rows.replace(encodeRow(m), embedding ? vectorToBlob(embedding) : null);
      this.writeEdges(m.id, m.edges);
    });
    this.store.emit({ kind: 'upsert', id: m.id });
  }

  /** Update that keeps the embedding (nooa's `save`), rewriting the edges when they changed. */
  save(m: Memory): void {
    this.store.transaction(() => {
      this.store.ensureMnemo();
      this.beforeWrite(m.id);
      if (!this.rows.update(encodeRow(m))) throw notFound(`no memory with id ${m.id}`, { id: m.id });
      this.writeEdges(m.id, m.edges);
    });
    this.store.emit({ kind: 'upsert', id: m.id });
  }

  /** The memory's edges rewritten only when they differ from the stored ones. */
  private writeEdges(src: string, edges: Edge[]): void {
    const current = this.rows.neighbors(src);
    const same =
      current.length === edges.length &&
      current.every((e, i) => {
        const n = edges[i]!;
        return e.target_id === n.target_id && e.type === n.type && e.weight === n.weight && e.created_at === n.created_at;
      });
    if (!same) this.rows.replaceEdges(src, edges);
  }

  setEmbedding(id: string, embedding: Float32Array | null): void {
    this.store.transaction(() => {
      this.store.ensureMnemo();
      this.beforeWrite(id);
      this.rows.setEmbedding(id, embedding ? vectorToBlob(embedding) : null);
    });
    this.store.emit({ kind: 'upsert', id });
  }

  /** Soft delete: flips only the `archived` column, as nooa does (the JSON keeps its old value). */
  setArchived(id: string, archived: boolean): boolean {
    const changed = this.store.transaction(() => {
      this.store.ensureMnemo();
      this.beforeWrite(id);
      return this.rows.setArchived(id, archived);
    });
    if (changed) this.store.emit({ kind: 'upsert', id });
    return changed;
  }

  /** Removes the row and every edge into or out of it. */
  delete(id: string): boolean {
    const changed = this.store.transaction(() => {
      this.store.ensureMnemo();
      // The memories whose edges into this one go with it change too.
      for (const src of new Set(this.rows.incoming(id).map((e) => e.src))) if (src !== id) this.beforeWrite(src);
      this.beforeWrite(id);
      return this.rows.remove(id);
    });
    if (changed) this.store.emit({ kind: 'delete', id });
    return changed;
  }

  /** add_edge semantics: the same target and type keeps the larger weight. */
  addEdge(src: string, dst: string, type: string, weight: number): boolean {
    if (!isEdgeType(type)) {
      throw badInput(`unknown edge type ${JSON.stringify(type)}; expected one of derived_from, created_by, supports, contradicts, refines, related, causes, precedes, part_of, triggers`, {
        field: 'type',
      });
    }
    return this.store.transaction(() => {
      const m = this.lockedSource(src);
      if (!this.store.exists(dst)) throw notFound(`no memory with id ${dst}`, { id: dst });
      const changed = addEdgeToMemory(m, dst, type, weight, this.store.clock.now());
      if (changed) this.store.save(m);
      return changed;
    });
  }

  removeEdge(src: string, dst: string, type: string): boolean {
    return this.store.transaction(() => {
      const m = this.lockedSource(src);
      const before = m.edges.length;
      m.edges = m.edges.filter((e) => !(e.target_id === dst && e.type === type));
      if (m.edges.length === before) return false;
      this.store.save(m);
      return true;
    });
  }

  /** The edge's source memory, its row locked for the rest of the transaction. */
  private lockedSource(src: string): Memory {
    this.rows.lock(src);
    const m = this.store.get(src);
    if (!m) throw notFound(`no memory with id ${src}`, { id: src });
    return m;
  }
}
