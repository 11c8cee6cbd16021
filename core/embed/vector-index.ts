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
 *
 * A snapshot read back (adoptInverted) brings the inverted layout itself, as views on the bytes
 * read: the columns (100+ MB at 100k memories) are then only filled in, from those lists, when
 * something needs them (a vector that really changed, an export). Touching that much fresh
 * memory costs more than everything else an open does. Read back lazily (adoptLazyInverted), a
 * list is read from the snapshot's file when a query first uses its dimension, and a row when a
 * patch or a keyword hit needs that one vector.
 */
import { SnapshotMismatch } from '../store/derived/snapshot-parts.js';
import { StoredStrings } from '../store/derived/stored-strings.js';
import { BoundedTopK } from './bounded-top-k.js';
import { knnBlocked } from './knn-blocked.js';
import { slotPasses, type InvertedList, type KnnHit, type SlotFilter, type StoredVectors } from './vector-types.js';

/** Slots' ids or owners as a snapshot gives them: an array, or the stored strings themselves. */
export type SlotStrings = readonly string[] | StoredStrings;

export type { KnnHit, SlotFilter, StoredVectors } from './vector-types.js';

export class VectorIndex {
  readonly dim: number;
  private cap = 0;
  private n = 0;
  private cols = new Float32Array(0);
  /** False while the columns have not been filled in from an adopted inverted layout. */
  private colsReady = true;
  private ids: string[] = [];
  private owners: string[] = [];
  private rowids = new Float64Array(0);
  private alive = new Uint8Array(0);
  private readonly slotOf = new Map<string, number>();
  /**
   * A snapshot's ids and owners as read (StoredStrings), until the first upsert makes them the
   * arrays and `slotOf` above (mutable()): reading 100k of each back made as many strings.
   */
  private restoredKeys: { ids: StoredStrings; owners: StoredStrings } | null = null;
  private liveCount = 0;
  private acc = new Float64Array(0);
  /** Inverted layout (null = not built or not worth it for dense vectors). */
  private inv: { slots: Uint32Array[]; vals: Float32Array[]; built: number } | null = null;
  /** An adopted snapshot's lists and rows, read when first needed (adoptLazyInverted); null once every list is in `inv`. */
  private stored: StoredVectors | null = null;
  private invDecided = false;
  /** Slots below `inv.built` whose vector changed after the build. */
  private readonly invStale = new Set<number>();

  /** `block`: slots knnBlocked sums at a time (64k cosines, half a megabyte); smaller in tests, to cross blocks on small indexes. */
  constructor(
    dim: number,
    private readonly block = 1 << 16,
  ) {
    this.dim = dim;
  }

  get size(): number {
    return this.liveCount;
  }

  has(id: string): boolean {
    const s = this.slotOfId(id);
    return s !== undefined && this.alive[s] === 1;
  }

  private slotOfId(id: string): number | undefined {
    if (!this.restoredKeys) return this.slotOf.get(id);
    const s = this.restoredKeys.ids.indexOf(id);
    return s < 0 ? undefined : s;
  }

  private idAt(slot: number): string {
    return this.restoredKeys ? this.restoredKeys.ids.get(slot) : this.ids[slot]!;
  }

  private ownerAt(slot: number): string {
    return this.restoredKeys ? this.restoredKeys.owners.shared(slot) : this.owners[slot]!;
  }

  /** The arrays and map an upsert edits, from a snapshot's strings (once). */
  private mutable(): void {
    const keys = this.restoredKeys;
    if (!keys) return;
    this.restoredKeys = null;
    this.ids = keys.ids.toArray();
    this.owners = keys.owners.toArray();
    this.ids.forEach((id, slot) => this.slotOf.set(id, slot));
  }

  clear(): void {
    this.cap = 0;
    this.n = 0;
    this.cols = new Float32Array(0);
    this.colsReady = true;
    this.ids = [];
    this.owners = [];
    this.rowids = new Float64Array(0);
    this.alive = new Uint8Array(0);
    this.slotOf.clear();
    this.restoredKeys = null;
    this.liveCount = 0;
    this.inv = null;
    this.stored = null;
    this.invDecided = false;
    this.invStale.clear();
  }

  private grow(min: number): void {
    let cap = Math.max(1024, this.cap);
    while (cap < min) cap *= 2;
    if (cap === this.cap) return;
    if (this.colsReady) {
      const cols = new Float32Array(cap * this.dim);
      for (let j = 0; j < this.dim; j++) cols.set(this.cols.subarray(j * this.cap, j * this.cap + this.n), j * cap);
      this.cols = cols;
    }
    const rowids = new Float64Array(cap);
    rowids.set(this.rowids.subarray(0, this.n));
    const alive = new Uint8Array(cap);
    alive.set(this.alive.subarray(0, this.n));
    this.rowids = rowids;
    this.alive = alive;
    this.cap = cap;
  }

  /** Reserves room for `count` rows up front (bulk loads). */
  reserve(count: number): void {
    if (count > this.cap) this.grow(count);
  }

  upsert(id: string, vec: Float32Array, owner: string, rowid: number): void {
    this.guarded(() => this.upsertNow(id, vec, owner, rowid));
  }

  private upsertNow(id: string, vec: Float32Array, owner: string, rowid: number): void {
    if (vec.length !== this.dim) return;
    this.mutable();
    let slot = this.slotOf.get(id);
    // Most patches after a restore are accesses: the vector is the same, the columns can wait.
    if (!this.colsReady && (slot === undefined || !sameVector(this.fromInverted(slot), vec))) this.fillColumns();
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
    if (!this.colsReady) return;
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
    const slot = this.slotOfId(id);
    if (slot === undefined || this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    this.liveCount--;
  }

  vector(id: string): Float32Array | null {
    return this.guarded(() => this.vectorNow(id));
  }

  private vectorNow(id: string): Float32Array | null {
    const slot = this.slotOfId(id);
    if (slot === undefined || this.alive[slot] !== 1) return null;
    if (!this.colsReady) return this.fromInverted(slot);
    const v = new Float32Array(this.dim);
    for (let j = 0; j < this.dim; j++) v[j] = this.cols[j * this.cap + slot]!;
    return v;
  }

  /** Cosines of the query against every slot, from the columns (dead slots included; callers check `alive`). */
  private scores(q: Float32Array): Float64Array {
    if (this.acc.length < this.n) this.acc = new Float64Array(this.cap);
    const acc = this.acc;
    acc.fill(0, 0, this.n);
    const cap = this.cap;
    const n = this.n;
    const cols = this.cols;
    for (let j = 0; j < this.dim; j++) {
      const qj = q[j]!;
      if (qj === 0) continue;
      const base = j * cap;
      for (let i = 0; i < n; i++) acc[i] = acc[i]! + qj * cols[base + i]!;
    }
    return acc;
  }

  /** Builds (or rebuilds) the inverted layout when the vectors are sparse enough to profit. */
  private invertedLayout(): { slots: Uint32Array[]; vals: Float32Array[]; built: number } | null {
    const pending = this.inv ? this.invStale.size + (this.n - this.inv.built) : 0;
    if (this.inv && pending <= Math.max(1024, this.n / 50)) return this.inv;
    if (this.invDecided && !this.inv) return null;
    if (this.n < 4096) return null; // small indexes: the columns are fast enough
    this.fillColumns();
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
    return this.guarded(() => this.knnNow(q, k, filter));
  }

  private knnNow(q: Float32Array, k: number, filter?: SlotFilter): KnnHit[] {
    if (k <= 0 || this.liveCount === 0) return [];
    if (this.invertedLayout()) return this.knnOverLists(q, k, filter);
    const acc = this.scores(q);
    const alive = this.alive;
    const top = new BoundedTopK(k, this.rowids);
    const slots = { idAt: (s: number) => this.idAt(s), ownerAt: (s: number) => this.ownerAt(s) };
    for (let i = 0; i < this.n; i++) {
      const v = acc[i]!;
      if (!top.admits(i, v) || alive[i] !== 1) continue;
      if (!slotPasses(filter, i, slots)) continue;
      top.add(i, v);
    }
    return top.best().map(({ slot, cos }) => ({ id: this.idAt(slot), cos }));
  }

  /** knn over the inverted lists, a block of slots at a time (knn-blocked.ts). */
  private knnOverLists(q: Float32Array, k: number, filter?: SlotFilter): KnnHit[] {
    const source = {
      dim: this.dim,
      n: this.n,
      built: this.inv!.built,
      stale: this.invStale,
      block: this.block,
      cols: this.cols,
      cap: this.cap,
      alive: this.alive,
      rowids: this.rowids,
      listOf: (j: number) => this.listOf(j),
      scratch: (length: number) => {
        if (this.acc.length < length) this.acc = new Float64Array(Math.max(length, 1024));
        return this.acc;
      },
      idAt: (slot: number) => this.idAt(slot),
      ownerAt: (slot: number) => this.ownerAt(slot),
    };
    return knnBlocked(source, q, k, filter);
  }

  /** Every live vector in slot order, row after row (for a snapshot; slot order does not change results: ties go by rowid). */
  exportLive(): { ids: string[]; owners: string[]; rowids: Float64Array; vectors: Float32Array } {
    const ids: string[] = [];
    const owners: string[] = [];
    const rowids = new Float64Array(this.liveCount);
    const vectors = new Float32Array(this.liveCount * this.dim);
    this.fillColumns();
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.alive[i] !== 1) continue;
      ids.push(this.idAt(i));
      owners.push(this.ownerAt(i));
      rowids[k] = this.rowids[i]!;
      for (let j = 0; j < this.dim; j++) vectors[k * this.dim + j] = this.cols[j * this.cap + i]!;
      k++;
    }
    return { ids, owners, rowids, vectors };
  }

  /** Replaces the content with the given live rows, their vectors row after row (dense model vectors from a snapshot). */
  adoptDense(ids: SlotStrings, owners: SlotStrings, rowids: Float64Array, dense: Float32Array): void {
    this.adoptRows(ids, owners, rowids);
    this.colsReady = true;
    const cap = this.cap;
    const dim = this.dim;
    const cols = (this.cols = new Float32Array(cap * dim));
    for (let k = 0; k < ids.length; k++) for (let j = 0; j < dim; j++) cols[j * cap + k] = dense[k * dim + j]!;
  }

  /** Cosine of the query with one stored vector, or null when the id is not indexed. */
  dotWith(id: string, q: Float32Array): number | null {
    return this.guarded(() => this.dotWithNow(id, q));
  }

  private dotWithNow(id: string, q: Float32Array): number | null {
    const slot = this.slotOfId(id);
    if (slot === undefined || this.alive[slot] !== 1) return null;
    // One small read of the stored row rather than a list per dimension of the query.
    const row = this.stored ? this.stored.row(slot) : null;
    let s = 0;
    for (let j = 0; j < this.dim; j++) {
      const qj = q[j]!;
      if (qj !== 0) s += qj * (row ? row[j]! : this.colsReady ? this.cols[j * this.cap + slot]! : this.invertedValue(j, slot));
    }
    return s;
  }

  /**
   * Replaces the content with the given live rows and their vectors in the inverted layout (per
   * dimension in order, `counts[j]` ascending slots and their values), kept as given: the arrays
   * may be views on a snapshot's bytes. Throws when the lists do not describe `ids.length` slots.
   */
  adoptInverted(ids: SlotStrings, owners: SlotStrings, rowids: Float64Array, inverted: { counts: Uint32Array; slots: Uint32Array; values: Float32Array }): void {
    const { counts, slots, values } = inverted;
    if (counts.length !== this.dim || slots.length !== values.length) throw new RangeError('inverted lists do not match the dimension');
    this.adoptRows(ids, owners, rowids);
    const lists: { slots: Uint32Array[]; vals: Float32Array[]; built: number } = { slots: [], vals: [], built: ids.length };
    let p = 0;
    for (let j = 0; j < this.dim; j++) {
      const end = p + counts[j]!;
      if (end > slots.length) throw new RangeError('inverted list counts exceed the stored slots');
      for (let k = p; k < end; k++) if (slots[k]! >= ids.length || (k > p && slots[k]! <= slots[k - 1]!)) throw new RangeError('an inverted list is out of order or out of range');
      lists.slots.push(slots.subarray(p, end));
      lists.vals.push(values.subarray(p, end));
      p = end;
    }
    if (p !== slots.length) throw new RangeError('inverted list values left over');
    this.inv = lists;
    this.invDecided = true;
    this.colsReady = false;
  }

  /**
   * As adoptInverted, but each dimension's list is read from `stored.list(j)` when a query first
   * uses that dimension (`counts` says how long each is; a query of the hashing embedder touches
   * ~30 of 256), and a row's vector from `stored.row(slot)` (a patch comparing it, a keyword hit's
   * cosine). Bytes that turn out damaged when read are recovered from by recoverFromDamage.
   */
  adoptLazyInverted(ids: SlotStrings, owners: SlotStrings, rowids: Float64Array, counts: Uint32Array, stored: StoredVectors): void {
    if (counts.length !== this.dim) throw new RangeError('inverted lists do not match the dimension');
    this.adoptRows(ids, owners, rowids);
    this.inv = { slots: new Array<Uint32Array>(this.dim), vals: new Array<Float32Array>(this.dim), built: ids.length };
    this.invDecided = true;
    this.colsReady = false;
    const n = ids.length;
    this.stored = {
      row: (slot) => stored.row(slot),
      list: (j) => {
        const l = stored.list(j);
        const { slots } = l;
        if (slots.length !== counts[j] || l.vals.length !== slots.length) throw new SnapshotMismatch(`stored vectors: dimension ${j} has ${slots.length} entries, expected ${counts[j]}`);
        for (let k = 0; k < slots.length; k++) if (slots[k]! >= n || (k > 0 && slots[k]! <= slots[k - 1]!)) throw new SnapshotMismatch('stored vectors: an inverted list is out of order or out of range');
        return l;
      },
    };
  }

  /** Every dimension's inverted list, now, from an adopted snapshot (PersistableIndex.warm for LiveVectors). */
  warm(): void {
    this.guarded(() => {
      for (let j = 0; j < this.dim && this.stored; j++) this.listOf(j);
    });
  }

  /** A dimension's inverted list, read from an adopted snapshot the first time. */
  private listOf(j: number): InvertedList {
    const inv = this.inv!;
    let slots = inv.slots[j];
    if (!slots) {
      const l = this.stored!.list(j);
      inv.slots[j] = slots = l.slots;
      inv.vals[j] = l.vals;
    }
    return { slots, vals: inv.vals[j]! };
  }

  /**
   * Runs a read or a write; when an adopted snapshot's bytes turn out damaged on the way (read
   * before the call changes anything), recovers (recoverFromDamage) and runs it again.
   */
  private guarded<R>(fn: () => R): R {
    if (!this.stored) return fn();
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof SnapshotMismatch)) throw err;
      this.stored = null;
      this.recoverFromDamage(err);
      return fn();
    }
  }

  /** A snapshot's bytes could not be read: an index that knows its store rebuilds from it (LiveVectors); this one cannot answer. */
  protected recoverFromDamage(err: Error): void {
    throw err;
  }

  /** The live rows in the inverted layout (what adoptInverted takes). */
  exportInverted(): { ids: string[]; owners: string[]; rowids: Float64Array; counts: Uint32Array; slots: Uint32Array; values: Float32Array } {
    const { ids, owners, rowids, vectors } = this.exportLive();
    const dim = this.dim;
    const counts = new Uint32Array(dim);
    for (let k = 0; k < vectors.length; k++) if (vectors[k] !== 0) counts[k % dim]!++;
    const start = new Uint32Array(dim + 1);
    for (let j = 0; j < dim; j++) start[j + 1] = start[j]! + counts[j]!;
    const slots = new Uint32Array(start[dim]!);
    const values = new Float32Array(start[dim]!);
    const fill = start.slice(0, dim);
    for (let r = 0; r < ids.length; r++) {
      for (let j = 0; j < dim; j++) {
        const x = vectors[r * dim + j]!;
        if (x === 0) continue;
        const at = fill[j]!++;
        slots[at] = r;
        values[at] = x;
      }
    }
    return { ids, owners, rowids, counts, slots, values };
  }

  private adoptRows(ids: SlotStrings, owners: SlotStrings, rowids: Float64Array): void {
    this.clear();
    this.colsReady = false; // grow() leaves the columns alone; the caller fills them or keeps the inverted lists
    this.grow(ids.length);
    if (ids instanceof StoredStrings && owners instanceof StoredStrings) {
      if (owners.length !== ids.length) throw new RangeError('ids and owners differ in length');
      this.restoredKeys = { ids: ids.index(), owners };
    } else {
      const get = (list: SlotStrings, i: number) => (list instanceof StoredStrings ? list.get(i) : list[i]!);
      for (let i = 0; i < ids.length; i++) {
        this.slotOf.set(get(ids, i), i);
        this.ids[i] = get(ids, i);
        this.owners[i] = get(owners, i);
      }
    }
    this.rowids.set(rowids.subarray(0, ids.length));
    this.alive.fill(1, 0, ids.length);
    this.n = ids.length;
    this.liveCount = ids.length;
  }

  /** A slot's value in dimension j, from the inverted lists (ascending slots: a bisection). */
  private invertedValue(j: number, slot: number): number {
    const { slots, vals } = this.listOf(j);
    let lo = 0;
    let hi = slots.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = slots[mid]!;
      if (s === slot) return vals[mid]!;
      if (s < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  private fromInverted(slot: number): Float32Array {
    if (this.stored) return this.stored.row(slot);
    const v = new Float32Array(this.dim);
    for (let j = 0; j < this.dim; j++) v[j] = this.invertedValue(j, slot);
    return v;
  }

  /** Fills the columns from the adopted inverted lists (column by column: sequential writes). */
  private fillColumns(): void {
    if (this.colsReady) return;
    // Every list, now (their rows are then no longer needed).
    for (let j = 0; j < this.dim && this.stored; j++) this.listOf(j);
    this.stored = null;
    const cap = this.cap;
    const cols = new Float32Array(cap * this.dim);
    for (let j = 0; j < this.dim; j++) {
      const { slots, vals } = this.listOf(j);
      const base = j * cap;
      for (let p = 0; p < slots.length; p++) cols[base + slots[p]!] = vals[p]!;
    }
    this.cols = cols;
    this.colsReady = true;
  }
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}
