/**
 * nooa's HashingEmbedder, reproduced bit for bit: lower-cased `[a-z0-9]+` tokens plus adjacent
 * bigrams `a_b`, each hashed with blake2b (8-byte digest); the first 4 bytes (little-endian) mod dim
 * pick the bucket and the low bit of byte 4 the sign; the sum is L2-normalised in float32.
 * blake2b's digest length is part of its parameter block, so a truncated 64-byte digest would
 * differ: @noble/hashes supports `dkLen` directly.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { normalizeF32, type Embedder } from './embedder.js';

const TOKEN = /[a-z0-9]+/g;
const encoder = new TextEncoder();

export function hashTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

export function hashFeatures(text: string): string[] {
  const tokens = hashTokens(text);
  const features = [...tokens];
  for (let i = 0; i + 1 < tokens.length; i++) features.push(`${tokens[i]}_${tokens[i + 1]}`);
  return features;
}

export class HashingEmbedder implements Embedder {
  readonly dim: number;
  readonly name: string;
  /** feature → signed bucket (+(b+1) or −(b+1)); vocabularies repeat, hashing is the cost. */
  private readonly cache = new Map<string, number>();

  constructor(dim = 256) {
    this.dim = dim;
    this.name = `hashing-${dim}`;
  }

  private signedBucket(feature: string): number {
    let sb = this.cache.get(feature);
    if (sb === undefined) {
      const h = blake2b(encoder.encode(feature), { dkLen: 8 });
      const bucket = (h[0]! | (h[1]! << 8) | (h[2]! << 16) | (h[3]! << 24)) >>> 0;
      const b = bucket % this.dim;
      sb = h[4]! & 1 ? b + 1 : -(b + 1);
      if (this.cache.size > 500_000) this.cache.clear();
      this.cache.set(feature, sb);
    }
    return sb;
  }

  embedSync(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    for (const f of hashFeatures(text)) {
      const sb = this.signedBucket(f);
      if (sb > 0) v[sb - 1] = Math.fround(v[sb - 1]! + 1);
      else v[-sb - 1] = Math.fround(v[-sb - 1]! - 1);
    }
    return normalizeF32(v);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedSync(t));
  }
}
