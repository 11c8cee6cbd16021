/**
 * The vector index as snapshot parts: ids, owners and rowids of the live slots, and their vectors.
 * Sparse vectors (the hashing embedder's have ~30 non-zeros in 256) are kept in the inverted
 * layout the index scores with (per dimension: its slots in ascending order and their values), so
 * reading them back is taking views on the bytes read, not rebuilding anything; and row by row
 * (per slot its non-zero dimensions and values), so one vector is one small read. A dimension's
 * list, or a row, is read from the file when first needed. Dense model vectors row after row, as
 * they are.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type SnapshotParts } from '../store/derived/snapshot-parts.js';
import type { StoredVectors, VectorIndex } from './vector-index.js';

export function encodeVectors(index: VectorIndex): SnapshotParts | null {
  const inv = index.exportInverted();
  const w = new PartsWriter();
  if (!w.strings('ids', inv.ids) || !w.strings('owners', inv.owners)) return null;
  w.typed('rowids', inv.rowids);
  // (uint32 slot + float32 value) = 8 bytes against 4 dense: the inverted layout pays below half full.
  if (inv.slots.length * 2 < inv.ids.length * index.dim) {
    w.typed('inverted.counts', inv.counts);
    w.typed('inverted.slots', inv.slots);
    w.typed('inverted.values', inv.values);
    const rows = rowsOf(inv, index.dim);
    w.typed('rows.start', rows.start);
    w.typed('rows.dims', rows.dims);
    w.typed('rows.values', rows.values);
  } else {
    w.typed('dense', index.exportLive().vectors);
  }
  return w.parts;
}

export function decodeVectors(index: VectorIndex, parts: PartSource): void {
  const r = new PartsReader(parts);
  const ids = r.strings('ids');
  const n = ids.length;
  const owners = r.strings('owners', n);
  const rowids = r.typed('rowids', Float64Array, n);
  const dim = index.dim;
  if (parts.has('dense')) {
    index.adoptDense(ids, owners, rowids, r.typed('dense', Float32Array, n * dim));
    return;
  }
  const counts = r.typed('inverted.counts', Uint32Array, dim);
  const listStarts = prefixSums(counts);
  const total = r.lengthOf('inverted.slots', Uint32Array);
  if (listStarts[dim] !== total || r.lengthOf('inverted.values', Float32Array) !== total || r.lengthOf('rows.dims', Uint16Array) !== total) throw new SnapshotMismatch('stored vectors: the list counts do not add up');
  let rowStarts: Uint32Array | null = null;
  const stored: StoredVectors = {
    list: (j) => ({ slots: r.typedRange('inverted.slots', Uint32Array, listStarts[j]!, listStarts[j + 1]!), vals: r.typedRange('inverted.values', Float32Array, listStarts[j]!, listStarts[j + 1]!) }),
    row: (slot) => {
      rowStarts ??= r.typed('rows.start', Uint32Array, n + 1);
      const from = rowStarts[slot]!;
      const to = rowStarts[slot + 1]!;
      if (to < from || to > total) throw new SnapshotMismatch('stored vectors: a row is out of range');
      const dims = r.typedRange('rows.dims', Uint16Array, from, to);
      const values = r.typedRange('rows.values', Float32Array, from, to);
      const v = new Float32Array(dim);
      for (let k = 0; k < dims.length; k++) {
        if (dims[k]! >= dim) throw new SnapshotMismatch('stored vectors: a row names a dimension past the last');
        v[dims[k]!] = values[k]!;
      }
      return v;
    },
  };
  try {
    index.adoptLazyInverted(ids, owners, rowids, counts, stored);
  } catch (err) {
    if (err instanceof RangeError) throw new SnapshotMismatch(`stored vectors: ${err.message}`);
    throw err;
  }
}

/** The inverted lists turned row by row: per slot, its non-zero dimensions (ascending) and values. */
function rowsOf(inv: { ids: readonly string[]; counts: Uint32Array; slots: Uint32Array; values: Float32Array }, dim: number): { start: Uint32Array; dims: Uint16Array; values: Float32Array } {
  const n = inv.ids.length;
  const start = new Uint32Array(n + 1);
  for (const slot of inv.slots) start[slot + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1] = start[i + 1]! + start[i]!;
  const at = start.slice(0, n);
  const dims = new Uint16Array(inv.slots.length);
  const values = new Float32Array(inv.slots.length);
  let p = 0;
  for (let j = 0; j < dim; j++) {
    for (let k = 0; k < inv.counts[j]!; k++, p++) {
      const slot = inv.slots[p]!;
      dims[at[slot]!] = j;
      values[at[slot]!++] = inv.values[p]!;
    }
  }
  return { start, dims, values };
}
