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
 * Only locked reads hold a row, and rows this transaction inserted (add's INSERT returns what it
 * needs: no other connection sees the row, or can insert the id, before the commit); only present
 * rows are held (an absent one may be inserted by another connection), and everything is let go
 * when the transaction ends, commit or rollback.
 *
 * Writes of a held row are held too (write-behind): PgMemoryRows writes every row and edge list
 * changed since the last flush in a few statements for all of them (takeDirty), sent ahead of the
 * connection's next statement, whatever it is, so no read ever sees the table without them.
 */
import type { Edge } from '../../model/memory.js';
import type { MemoryRow } from '../port/codec.js';

export interface HeldMemory {
  /** The row's columns but the embedding (ROW_COLS), rowid included. */
  row: MemoryRow;
  embedding: Uint8Array | null;
  /** Outgoing edges in rowid order. */
  edges: Edge[];
  /** Their rowids as read with them; absent once the list is written here (the table numbers it at the flush). */
  edgeRowids?: number[];
}

interface Held extends HeldMemory {
  /** Written here since the last flush, not yet in the table. */
  rowDirty: boolean;
  edgesDirty: boolean;
}

/** What takeDirty hands over: the rows and the edge lists to write. */
export interface DirtyRows {
  rows: MemoryRow[];
  edges: { src: string; edges: Edge[] }[];
}

const copyEdges = (edges: readonly Edge[]): Edge[] => edges.map((e) => ({ ...e }));

export class PgHeldRows {
  /** Null outside a transaction: nothing is held, nothing may be. */
  private held: Map<string, Held> | null = null;
  /** How many held rows have writes not flushed yet (a flush with none costs nothing). */
  private dirty = 0;

  /** A transaction starts (or ends: `open` false); what was held before is let go either way. */
  reset(open: boolean): void {
    this.held = open ? new Map() : null;
    this.dirty = 0;
  }

  get open(): boolean {
    return this.held !== null;
  }

  /** A copy of what is held for `id` (the caller may change it), or null. */
  get(id: string): HeldMemory | null {
    const h = this.held?.get(id);
    return h ? { row: { ...h.row }, embedding: h.embedding, edges: copyEdges(h.edges), ...(h.edgeRowids ? { edgeRowids: [...h.edgeRowids] } : {}) } : null;
  }

  has(id: string): boolean {
    return this.held?.has(id) ?? false;
  }

  /** Holds a row just read with its lock, or just inserted (inside a transaction only). */
  put(id: string, memory: HeldMemory): void {
    if (this.held?.get(id)?.rowDirty || this.held?.get(id)?.edgesDirty) return; // never over writes not flushed
    this.held?.set(id, { row: { ...memory.row }, embedding: memory.embedding, edges: copyEdges(memory.edges), ...(memory.edgeRowids ? { edgeRowids: [...memory.edgeRowids] } : {}), rowDirty: false, edgesDirty: false });
  }

  /** The held row after a write of these columns; false when the row is not held. */
  patchRow(id: string, columns: Partial<MemoryRow>): boolean {
    const h = this.held?.get(id);
    if (!h) return false;
    h.row = { ...h.row, ...columns, rowid: h.row.rowid };
    this.markDirty(h, 'rowDirty');
    return true;
  }

  patchEmbedding(id: string, embedding: Uint8Array | null): void {
    const h = this.held?.get(id);
    if (h) h.embedding = embedding;
  }

  /** The held edge list after a write of it; false when the row is not held. */
  patchEdges(id: string, edges: readonly Edge[]): boolean {
    const h = this.held?.get(id);
    if (!h) return false;
    h.edges = copyEdges(edges);
    delete h.edgeRowids;
    this.markDirty(h, 'edgesDirty');
    return true;
  }

  private markDirty(h: Held, what: 'rowDirty' | 'edgesDirty'): void {
    if (!h.rowDirty && !h.edgesDirty) this.dirty++;
    h[what] = true;
  }

  /** The writes not flushed yet, now counted as flushed: the caller sends them before anything else. */
  takeDirty(): DirtyRows | null {
    if (!this.held || this.dirty === 0) return null;
    const out: DirtyRows = { rows: [], edges: [] };
    for (const [id, h] of this.held) {
      if (h.rowDirty) out.rows.push({ ...h.row });
      if (h.edgesDirty) out.edges.push({ src: id, edges: copyEdges(h.edges) });
      h.rowDirty = false;
      h.edgesDirty = false;
    }
    this.dirty = 0;
    return out;
  }

  /** Lets one row go (its rowid changed, or it is gone); the caller flushed its writes first. */
  drop(id: string): void {
    this.held?.delete(id);
  }

  /**
   * A memory is deleted with every edge into it: the held rows' edge lists lose theirs, as the
   * table does (the caller flushed their writes first, so a list not written since stays in step).
   */
  forgetEdgesInto(id: string): void {
    for (const h of this.held?.values() ?? []) h.edges = h.edges.filter((e) => e.target_id !== id);
  }
}
