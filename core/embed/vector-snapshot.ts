/**
 * The vector index as snapshot parts: ids, owners and rowids of the live slots, and their vectors.
 * Sparse vectors (the hashing embedder's have ~30 non-zeros in 256) are kept in the inverted
 * layout the index scores with (per dimension: its slots in ascending order and their values), so
 * reading them back is taking views on the bytes read, not rebuilding anything; dense model vectors
 * row after row, as they are.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../store/snapshot-parts.js';
import type { VectorIndex } from './vector-index.js';

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
  } else {
    w.typed('dense', index.exportLive().vectors);
  }
  return w.parts;
}

export function decodeVectors(index: VectorIndex, parts: SnapshotParts): void {
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
  const slots = r.typed('inverted.slots', Uint32Array);
  const values = r.typed('inverted.values', Float32Array, slots.length);
  try {
    index.adoptInverted(ids, owners, rowids, { counts, slots, values });
  } catch (err) {
    if (err instanceof RangeError) throw new SnapshotMismatch(`stored vectors: ${err.message}`);
    throw err;
  }
}
