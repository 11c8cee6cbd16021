/**
 * The Embedder port. Async because real models live behind HTTP; the hashing embedder also
 * offers a synchronous path for the hot loops (queries, demo generation) that need no I/O.
 */
export interface Embedder {
  /** A stable name recorded with the store, e.g. `hashing-256` or `openai:text-embedding-3-small`. */
  readonly name: string;
  readonly dim: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Present when embedding needs no I/O. */
  embedSync?(text: string): Float32Array;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

/** L2-normalises in float32, as numpy does on float32 arrays; a zero vector stays zero. */
export function normalizeF32(v: Float32Array): Float32Array {
  let ss = 0;
  for (let i = 0; i < v.length; i++) ss = Math.fround(ss + Math.fround(v[i]! * v[i]!));
  const norm = Math.fround(Math.sqrt(ss));
  if (norm === 0) return v;
  for (let i = 0; i < v.length; i++) v[i] = Math.fround(v[i]! / norm);
  return v;
}
