/**
 * Exact cosine KNN over the live embeddings, held in memory column by column. The hashing
 * embedder's vectors have a few dozen non-zeros, so a query touches only its own non-zero
 * columns: 100k rows × ~20 columns is a few milliseconds, with the same answer a brute-force
 * scan gives (this is the reference's "numpy exact cosine", not an approximation). Dense model
 * vectors simply touch every column.
 *
 * Ties are broken by rowid (older row first), which is deterministic; numpy's argpartition is not.
 *
 * When the stored vectors are sparse (the hashing embedder's have ~30 of 256 non-zeros), an
 * inverted layout (per dimension: the slots with a non-zero and their values) is built on first
 * use: a query then reads ~8× fewer numbers. Slots added or changed after that build are scored
 * from the columns directly until enough accumulate to rebuild. Both layouts add the same
 * products in the same dimension order, so cosines are bit-identical either way.
 */

export interface KnnHit {
  id: string;
  cos: number;
}

export type SlotFilter = (id: string, owner: string) => boolean;

export class VectorIndex {
  readonly dim: number;
  private cap = 0;
  private n = 0;
  private cols = new Float32Array(0);
  private ids: string[] = [];
  private owners: string[] = [];
  private rowids = new Float64Array(0);
  private alive = new Uint8Array(0);
  private readonly slotOf = new Map<string, number>();
  private liveCount = 0;
  private acc = new Float64Array(0);
  /** Inverted layout (null = not built or not worth it for dense vectors). */
  private inv: { slots: Uint32Array[]; vals: Float32Array[]; built: number } | null = null;
  private invDecided = false;
  /** Slots below `inv.built` whose vector changed after the build. */
  private readonly invStale = new Set<number>();

  constructor(dim: number) {
    this.dim = dim;
  }

  get size(): number {
    return this.liveCount;
  }

  has(id: string): boolean {
    const s = this.slotOf.get(id);
    return s !== undefined && this.alive[s] === 1;
  }

  clear(): void {
    this.cap = 0;
    this.n = 0;
    this.cols = new Float32Array(0);
    this.ids = [];
    this.owners = [];
    this.rowids = new Float64Array(0);
    this.alive = new Uint8Array(0);
    this.slotOf.clear();
    this.liveCount = 0;
    this.inv = null;
    this.invDecided = false;
    this.invStale.clear();
  }

  private grow(min: number): void {
    let cap = Math.max(1024, this.cap);
    while (cap < min) cap *= 2;
    if (cap === this.cap) return;
    const cols = new Float32Array(cap * this.dim);
    for (let j = 0; j < this.dim; j++) cols.set(this.cols.subarray(j * this.cap, j * this.cap + this.n), j * cap);
    const rowids = new Float64Array(cap);
    rowids.set(this.rowids.subarray(0, this.n));
    const alive = new Uint8Array(cap);
    alive.set(this.alive.subarray(0, this.n));
    this.cols = cols;
    this.rowids = rowids;
    this.alive = alive;
    this.cap = cap;
  }

  /** Reserves room for `count` rows up front (bulk loads). */
  reserve(count: number): void {
    if (count > this.cap) this.grow(count);
  }

  upsert(id: string, vec: Float32Array, owner: string, rowid: number): void {
    if (vec.length !== this.dim) return;
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      if (this.n === this.cap) this.grow(this.n + 1);
      slot = this.n++;
      this.slotOf.set(id, slot);
      this.ids[slot] = id;
    }
    if (this.alive[slot] !== 1) this.liveCount++;
    this.alive[slot] = 1;
    this.owners[slot] = owner;
    this.rowids[slot] = rowid;
    const cap = this.cap;
    let changed = false;
    for (let j = 0; j < this.dim; j++) {
      const k = j * cap + slot;
      if (this.cols[k] !== vec[j]) {
        this.cols[k] = vec[j]!;
        changed = true;
      }
    }
    if (changed && this.inv && slot < this.inv.built) this.invStale.add(slot);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    this.liveCount--;
  }

  vector(id: string): Float32Array | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.alive[slot] !== 1) return null;
    const v = new Float32Array(this.dim);
    for (let j = 0; j < this.dim; j++) v[j] = this.cols[j * this.cap + slot]!;
    return v;
  }

  /** Cosines of the query against every slot (dead slots included; callers check `alive`). */
  private scores(q: Float32Array): Float64Array {
    if (this.acc.length < this.n) this.acc = new Float64Array(this.cap);
    const acc = this.acc;
    acc.fill(0, 0, this.n);
    const cap = this.cap;
    const n = this.n;
    const cols = this.cols;
    const inv = this.invertedLayout();
    if (!inv) {
      for (let j = 0; j < this.dim; j++) {
        const qj = q[j]!;
        if (qj === 0) continue;
        const base = j * cap;
        for (let i = 0; i < n; i++) acc[i] = acc[i]! + qj * cols[base + i]!;
      }
      return acc;
    }
    for (let j = 0; j < this.dim; j++) {
      const qj = q[j]!;
      if (qj === 0) continue;
      const slots = inv.slots[j]!;
      const vals = inv.vals[j]!;
      for (let p = 0; p < slots.length; p++) {
        const i = slots[p]!;
        acc[i] = acc[i]! + qj * vals[p]!;
      }
    }
    // Slots the inverted lists do not describe (changed or added since the build): from the columns.
    const direct = (i: number) => {
      let a = 0;
      for (let j = 0; j < this.dim; j++) {
        const qj = q[j]!;
        if (qj !== 0) a = a + qj * cols[j * cap + i]!;
      }
      acc[i] = a;
    };
    for (const i of this.invStale) direct(i);
    for (let i = inv.built; i < n; i++) direct(i);
    return acc;
  }

  /** Builds (or rebuilds) the inverted layout when the vectors are sparse enough to profit. */
  private invertedLayout(): { slots: Uint32Array[]; vals: Float32Array[]; built: number } | null {
    const pending = this.inv ? this.invStale.size + (this.n - this.inv.built) : 0;
    if (this.inv && pending <= Math.max(1024, this.n / 50)) return this.inv;
    if (this.invDecided && !this.inv) return null;
    if (this.n < 4096) return null; // small indexes: the columns are fast enough
    const cap = this.cap;
    const counts = new Uint32Array(this.dim);
    let nonzero = 0;
    for (let j = 0; j < this.dim; j++) {
      const base = j * cap;
      for (let i = 0; i < this.n; i++) if (this.cols[base + i] !== 0) counts[j] = counts[j]! + 1;
      nonzero += counts[j]!;
    }
    this.invDecided = true;
    if (nonzero > 0.3 * this.n * this.dim) {
      this.inv = null;
      return null;
    }
    const slots: Uint32Array[] = [];
    const vals: Float32Array[] = [];
    for (let j = 0; j < this.dim; j++) {
      const sl = new Uint32Array(counts[j]!);
      const vl = new Float32Array(counts[j]!);
      const base = j * cap;
      let p = 0;
      for (let i = 0; i < this.n; i++) {
        const x = this.cols[base + i]!;
        if (x !== 0) {
          sl[p] = i;
          vl[p++] = x;
        }
      }
      slots.push(sl);
      vals.push(vl);
    }
    this.inv = { slots, vals, built: this.n };
    this.invStale.clear();
    return this.inv;
  }

  /** The k nearest live vectors by cosine, best first; `filter` restricts by id and owner. */
  knn(q: Float32Array, k: number, filter?: SlotFilter): KnnHit[] {
    if (k <= 0 || this.liveCount === 0) return [];
    const acc = this.scores(q);
    // A min-heap of the best k slots; "worse" = lower cos, or equal cos and later rowid.
    const heap: number[] = [];
    const worse = (a: number, b: number) => acc[a]! < acc[b]! || (acc[a] === acc[b] && this.rowids[a]! > this.rowids[b]!);
    const siftUp = (i: number) => {
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    const alive = this.alive;
    const rowids = this.rowids;
    let floor = -Infinity; // the worst kept cosine once the heap is full
    for (let i = 0; i < this.n; i++) {
      const v = acc[i]!;
      if (v < floor || alive[i] !== 1) continue;
      if (heap.length === k && (v === floor ? rowids[i]! > rowids[heap[0]!]! : false)) continue;
      if (filter && !filter(this.ids[i]!, this.owners[i]!)) continue;
      if (heap.length < k) {
        heap.push(i);
        siftUp(heap.length - 1);
      } else {
        heap[0] = i;
        siftDown(0);
      }
      if (heap.length === k) floor = acc[heap[0]!]!;
    }
    heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
    return heap.map((i) => ({ id: this.ids[i]!, cos: acc[i]! }));
  }

  /** Every live vector in slot order, row after row (for a snapshot; slot order does not change results: ties go by rowid). */
  exportLive(): { ids: string[]; owners: string[]; rowids: Float64Array; vectors: Float32Array } {
    const ids: string[] = [];
    const owners: string[] = [];
    const rowids = new Float64Array(this.liveCount);
    const vectors = new Float32Array(this.liveCount * this.dim);
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.alive[i] !== 1) continue;
      ids.push(this.ids[i]!);
      owners.push(this.owners[i]!);
      rowids[k] = this.rowids[i]!;
      for (let j = 0; j < this.dim; j++) vectors[k * this.dim + j] = this.cols[j * this.cap + i]!;
      k++;
    }
    return { ids, owners, rowids, vectors };
  }

  /**
   * Replaces the content with the given live rows (a snapshot read back), their vectors written
   * straight into the columns: `dense` row after row, or sparse as per-row counts of
   * (dimension, value) pairs.
   */
  adoptLive(ids: readonly string[], owners: readonly string[], rowids: Float64Array, vectors: { dense: Float32Array } | { counts: Uint16Array; dims: Uint16Array; values: Float32Array }): void {
    this.clear();
    this.grow(ids.length);
    const cap = this.cap;
    const cols = this.cols;
    const dim = this.dim;
    if ('dense' in vectors) {
      const dense = vectors.dense;
      for (let k = 0; k < ids.length; k++) for (let j = 0; j < dim; j++) cols[j * cap + k] = dense[k * dim + j]!;
    } else {
      const { counts, dims, values } = vectors;
      let p = 0;
      for (let k = 0; k < ids.length; k++) {
        const end = p + counts[k]!;
        for (; p < end; p++) cols[dims[p]! * cap + k] = values[p]!;
      }
    }
    for (let i = 0; i < ids.length; i++) {
      this.slotOf.set(ids[i]!, i);
      this.ids[i] = ids[i]!;
      this.owners[i] = owners[i]!;
      this.rowids[i] = rowids[i]!;
      this.alive[i] = 1;
    }
    this.n = ids.length;
    this.liveCount = ids.length;
  }

  /** Cosine of the query with one stored vector, or null when the id is not indexed. */
  dotWith(id: string, q: Float32Array): number | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.alive[slot] !== 1) return null;
    let s = 0;
    for (let j = 0; j < this.dim; j++) {
      const qj = q[j]!;
      if (qj !== 0) s += qj * this.cols[j * this.cap + slot]!;
    }
    return s;
  }
}
