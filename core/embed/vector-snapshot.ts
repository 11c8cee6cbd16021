/**
 * The vector index as snapshot parts: ids, owners and rowids of the live slots, and their vectors.
 * Sparse vectors (the hashing embedder's have ~30 non-zeros in 256) are kept as (dimension, value)
 * pairs, a quarter of the dense size; dense model vectors as they are.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../store/snapshot-parts.js';
import type { VectorIndex } from './vector-index.js';

export function encodeVectors(index: VectorIndex): SnapshotParts | null {
  const { ids, owners, rowids, vectors } = index.exportLive();
  const w = new PartsWriter();
  if (!w.strings('ids', ids) || !w.strings('owners', owners)) return null;
  w.typed('rowids', rowids);
  let nonzero = 0;
  for (let k = 0; k < vectors.length; k++) if (vectors[k] !== 0) nonzero++;
  // (uint16 dimension + float32 value) = 6 bytes against 4 dense: sparse pays below two thirds full.
  if (index.dim <= 65536 && nonzero * 6 < vectors.length * 4) {
    const counts = new Uint16Array(ids.length);
    const dims = new Uint16Array(nonzero);
    const values = new Float32Array(nonzero);
    let p = 0;
    for (let r = 0; r < ids.length; r++) {
      for (let j = 0; j < index.dim; j++) {
        const x = vectors[r * index.dim + j]!;
        if (x === 0) continue;
        dims[p] = j;
        values[p++] = x;
        counts[r]!++;
      }
    }
    w.typed('sparse.counts', counts);
    w.typed('sparse.dims', dims);
    w.typed('sparse.values', values);
  } else {
    w.typed('dense', vectors);
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
    const dense = r.typed('dense', Float32Array, n * dim);
    index.adoptLive(ids, owners, rowids, { dense });
    return;
  }
  const counts = r.typed('sparse.counts', Uint16Array, n);
  const dims = r.typed('sparse.dims', Uint16Array);
  const values = r.typed('sparse.values', Float32Array, dims.length);
  let total = 0;
  for (let k = 0; k < n; k++) total += counts[k]!;
  if (total !== dims.length) throw new SnapshotMismatch('stored vector counts do not match their values');
  for (let p = 0; p < dims.length; p++) if (dims[p]! >= dim) throw new SnapshotMismatch('a stored vector has a dimension out of range');
  index.adoptLive(ids, owners, rowids, { counts, dims, values });
}
