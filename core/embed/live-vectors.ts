/** The vector index over live (non-archived) memories, kept in step with the store and snapshotted beside it. */
import { blobToVector } from '../store/port/codec.js';
import { VectorIndex } from './vector-index.js';
import type { PersistableIndex } from '../store/derived/derived.js';
import { rowCounter, type LoadProgress } from '../store/derived/derived-index.js';
import type { StoreReader } from '../store/port/port.js';
import type { PartSource, SnapshotParts } from '../store/derived/snapshot-parts.js';
import { decodeVectors, encodeVectors } from './vector-snapshot.js';
import { countMemories } from '../store/queries/memory-lookups.js';

export class LiveVectors extends VectorIndex implements PersistableIndex {
  /** Embeddings come from the row alone, and an access leaves them as they are. */
  readonly readsNoEdges = true;
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  /** 2: sparse vectors in the inverted layout (1 stored them row by row); 3: and row by row beside it (read a vector alone). */
  readonly snapshotFormat = 'vectors/3';
  /** The store a snapshot was read beside (to rebuild from if its bytes turn out damaged later). */
  private source: StoreReader | null = null;

  /** `embedder`: the name of the embedder whose vectors these are (a snapshot of another's is rebuilt). */
  constructor(
    dim: number,
    private readonly embedder = 'unknown',
  ) {
    super(dim);
  }

  load(store: StoreReader, progress?: LoadProgress): void {
    this.clear();
    const total = countMemories(store);
    this.reserve(total);
    const rows = rowCounter(total, progress);
    for (const r of store.queries.liveVectorRows()) {
      const v = blobToVector(r.embedding, this.dim);
      if (v) this.upsert(r.id, v, r.owner, r.rowid);
      else if (r.embedding) store.warn(`emb:${r.id}`, `memory ${r.id}: stored embedding has the wrong size for dim ${this.dim}; skipped`);
      rows.tick();
    }
    rows.end();
  }

  update(store: StoreReader, id: string): void {
    const r = store.queries.vectorRow(id);
    const v = r && r.archived === 0 ? blobToVector(r.embedding, this.dim) : null;
    if (r && v) this.upsert(id, v, r.owner, r.rowid);
    else this.remove(id);
  }

  snapshotConditions(): string {
    return JSON.stringify({ embedder: this.embedder, dim: this.dim });
  }

  saveSnapshot(): SnapshotParts | null {
    return encodeVectors(this);
  }

  restoreSnapshot(parts: PartSource, store: StoreReader): void {
    this.source = store;
    decodeVectors(this, parts);
  }

  /** A part of the snapshot read back is damaged (found when a query first needed it): rebuilt from the store, which answers the same. */
  protected override recoverFromDamage(): void {
    this.load(this.source!);
  }
}
