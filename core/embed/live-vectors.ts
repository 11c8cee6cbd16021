/** The vector index over live (non-archived) memories, kept in step with the store. */
import { blobToVector } from '../store/codec.js';
import { VectorIndex } from './vector-index.js';
import type { DerivedIndex } from '../store/derived.js';
import type { MemoryStore } from '../store/store.js';

export class LiveVectors extends VectorIndex implements DerivedIndex {
  load(store: MemoryStore): void {
    this.clear();
    this.reserve(store.count());
    const rows = store.db
      .prepare('SELECT rowid, id, owner, embedding FROM memories WHERE archived = 0 ORDER BY rowid')
      .iterate() as Iterable<{ rowid: number; id: string; owner: string; embedding: Buffer | null }>;
    for (const r of rows) {
      const v = blobToVector(r.embedding, this.dim);
      if (v) this.upsert(r.id, v, r.owner, r.rowid);
      else if (r.embedding) store.warn(`emb:${r.id}`, `memory ${r.id}: stored embedding has the wrong size for dim ${this.dim}; skipped`);
    }
  }

  update(store: MemoryStore, id: string): void {
    const r = store.statement('SELECT rowid, owner, archived, embedding FROM memories WHERE id = ?').get(id) as
      | { rowid: number; owner: string; archived: number; embedding: Buffer | null }
      | undefined;
    const v = r && r.archived === 0 ? blobToVector(r.embedding, this.dim) : null;
    if (r && v) this.upsert(id, v, r.owner, r.rowid);
    else this.remove(id);
  }
}
