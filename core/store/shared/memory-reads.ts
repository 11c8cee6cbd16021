/**
 * Two reads of a memory both adapters answer alike over their own rows: the memory an id or a
 * unique prefix names (or a not_found error naming what was asked), and its embedding with the
 * store's dimension checked (a vector of another size is reported once and read as none).
 */
import { notFound } from '../../errors.js';
import type { Memory } from '../../model/memory.js';
import { blobToVector } from '../port/codec.js';

export function requireMemory(store: { requireId(idOrPrefix: string): string; get(id: string): Memory | null }, idOrPrefix: string): Memory {
  const m = store.get(store.requireId(idOrPrefix));
  if (!m) throw notFound(`no memory with id ${idOrPrefix}`, { id: idOrPrefix });
  return m;
}

export function storedEmbedding(store: { readonly dim: number; warn(key: string, message: string): void }, id: string, blob: Uint8Array | null): Float32Array | null {
  if (!blob) return null;
  const v = blobToVector(blob, store.dim);
  if (!v) store.warn(`emb:${id}`, `memory ${id}: stored embedding has ${blob.byteLength / 4} dimensions, expected ${store.dim}; skipped`);
  return v;
}
