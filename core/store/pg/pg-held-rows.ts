/**
 * Memories this connection has locked in the running transaction, held with what it has since
 * written to them, so that the reads a change repeats answer from memory instead of a round trip.
 *
 * A reflection apply reads each memory it changes (get, locking the row), the journal snapshots it
 * before the write (row, embedding, outgoing edges: three statements), the write compares the
 * edges again, and the end of the batch snapshots it once more: about ten statements per
 * operation through the synchronous bridge, where SQLite's reads cost microseconds. The row is
 * locked from the first read to the commit, so no other connection can change it meanwhile; every
 * write of it on this connection goes through PgMemoryRows, which keeps the held copy in step (or
 * lets it go when it cannot: a new rowid, a delete). So what is held is what a read would return.
 *
 * Only locked reads hold a row, only present rows are held (an absent one may be inserted by
 * another connection), and everything is let go when the transaction ends, commit or rollback.
 */
import type { Edge } from '../../model/memory.js';
import type { MemoryRow } from '../codec.js';

export interface HeldMemory {
  /** The row's columns but the embedding (ROW_COLS), rowid included. */
  row: MemoryRow;
  embedding: Uint8Array | null;
  /** Outgoing edges in rowid order. */
  edges: Edge[];
}

const copyEdges = (edges: readonly Edge[]): Edge[] => edges.map((e) => ({ ...e }));

export class PgHeldRows {
  /** Null outside a transaction: nothing is held, nothing may be. */
  private held: Map<string, HeldMemory> | null = null;

  /** A transaction starts (or ends: `open` false); what was held before is let go either way. */
  reset(open: boolean): void {
    this.held = open ? new Map() : null;
  }

  get open(): boolean {
    return this.held !== null;
  }

  /** A copy of what is held for `id` (the caller may change it), or null. */
  get(id: string): HeldMemory | null {
    const h = this.held?.get(id);
    return h ? { row: { ...h.row }, embedding: h.embedding, edges: copyEdges(h.edges) } : null;
  }

  has(id: string): boolean {
    return this.held?.has(id) ?? false;
  }

  /** Holds a row just read with its lock (inside a transaction only). */
  put(id: string, memory: HeldMemory): void {
    this.held?.set(id, { row: { ...memory.row }, embedding: memory.embedding, edges: copyEdges(memory.edges) });
  }

  /** The held row after a write of these columns; false when the row is not held. */
  patchRow(id: string, columns: Partial<MemoryRow>): boolean {
    const h = this.held?.get(id);
    if (!h) return false;
    h.row = { ...h.row, ...columns, rowid: h.row.rowid };
    return true;
  }

  patchEmbedding(id: string, embedding: Uint8Array | null): void {
    const h = this.held?.get(id);
    if (h) h.embedding = embedding;
  }

  patchEdges(id: string, edges: readonly Edge[]): void {
    const h = this.held?.get(id);
    if (h) h.edges = copyEdges(edges);
  }

  /** Lets one row go (its rowid changed, or it is gone). */
  drop(id: string): void {
    this.held?.delete(id);
  }

  /** Lets every row go (a delete took edges out of rows other than its own). */
  dropAll(): void {
    this.held?.clear();
  }
}
