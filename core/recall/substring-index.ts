/**
 * An exact in-memory substring index answering nooa's keyword leg, `lower(text) LIKE '%tok%'`,
 * for tokens made of [a-z0-9]. A full-scan LIKE costs ~90 ms per token on 100k memories; this
 * answers in well under a millisecond with the same ids in the same (slot = rowid) order:
 *   - 1- and 2-character tokens: one bitset per gram (36 + 1296 bitsets), read directly;
 *   - 3-character tokens: the trigram's posting list, read directly;
 *   - longer tokens: the intersection of the two rarest trigram posting lists, verified with
 *     indexOf on the lower-cased text (so a posting hit is never trusted alone).
 * SQLite FTS5's trigram tokenizer was the other candidate: it cannot serve 1–2 character
 * tokens (they fall back to a full scan), its case folding is Unicode rather than SQLite's
 * ASCII `lower()`, and it would write a table into a nooa file on a read.
 */

const ALPHABET = 36;
const BIGRAMS = ALPHABET * ALPHABET;
const TRIGRAMS = BIGRAMS * ALPHABET;

/** a-z → 0..25, 0-9 → 26..35, anything else → -1 (texts are already ASCII-lower-cased). */
function code(ch: number): number {
  if (ch >= 97 && ch <= 122) return ch - 97;
  if (ch >= 48 && ch <= 57) return ch - 48 + 26;
  return -1;
}

export class SubstringIndex {
  /** Slots [0, size) are indexed. */
  readonly size: number;
  private readonly texts: readonly string[];
  private readonly words: number;
  /** 1-gram bitsets then 2-gram bitsets, `words` 32-bit words each. */
  private readonly bits: Uint32Array;
  private readonly triStart: Uint32Array;
  private readonly triPostings: Uint32Array;

  /** `texts[slot]` must already be ASCII-lower-cased; null = nothing to index for that slot. */
  constructor(texts: readonly (string | null)[]) {
    this.size = texts.length;
    this.texts = texts.map((t) => t ?? '');
    this.words = Math.max(1, Math.ceil(this.size / 32));
    this.bits = new Uint32Array((ALPHABET + BIGRAMS) * this.words);
    const counts = new Uint32Array(TRIGRAMS + 1);
    const last = new Int32Array(TRIGRAMS).fill(-1);
    // Pass 1: bitsets, and how many documents hold each trigram.
    for (let slot = 0; slot < this.size; slot++) {
      const t = this.texts[slot]!;
      const w = slot >>> 5;
      const bit = 1 << (slot & 31);
      let c1 = -1;
      let c2 = -1;
      for (let i = 0; i < t.length; i++) {
        const c = code(t.charCodeAt(i));
        if (c >= 0) {
          {
            const k = c * this.words + w;
            this.bits[k] = this.bits[k]! | bit;
          }
          if (c2 >= 0) {
            const k = (ALPHABET + c2 * ALPHABET + c) * this.words + w;
            this.bits[k] = this.bits[k]! | bit;
          }
          if (c1 >= 0 && c2 >= 0) {
            const g = c1 * BIGRAMS + c2 * ALPHABET + c;
            if (last[g] !== slot) {
              last[g] = slot;
              counts[g + 1] = counts[g + 1]! + 1;
            }
          }
        }
        c1 = c2;
        c2 = c;
      }
    }
    this.triStart = new Uint32Array(TRIGRAMS + 1);
    for (let g = 0; g < TRIGRAMS; g++) this.triStart[g + 1] = this.triStart[g]! + counts[g + 1]!;
    this.triPostings = new Uint32Array(this.triStart[TRIGRAMS]!);
    const fill = this.triStart.slice(0, TRIGRAMS);
    last.fill(-1);
    // Pass 2: posting lists, in slot order.
    for (let slot = 0; slot < this.size; slot++) {
      const t = this.texts[slot]!;
      let c1 = -1;
      let c2 = -1;
      for (let i = 0; i < t.length; i++) {
        const c = code(t.charCodeAt(i));
        if (c >= 0 && c1 >= 0 && c2 >= 0) {
          const g = c1 * BIGRAMS + c2 * ALPHABET + c;
          if (last[g] !== slot) {
            last[g] = slot;
            this.triPostings[fill[g]!] = slot;
            fill[g] = fill[g]! + 1;
          }
        }
        c1 = c2;
        c2 = c;
      }
    }
  }

  /** Approximate memory held, in bytes (for diagnostics). */
  get bytes(): number {
    return this.bits.byteLength + this.triStart.byteLength + this.triPostings.byteLength;
  }

  /** Words of a bitset covering the indexed slots. */
  get bitWords(): number {
    return this.words;
  }

  /**
   * Sets the bit of every indexed slot whose text contains `token` in `out` (a bitset with at
   * least `bitWords` words; slot s is bit s & 31 of word s >>> 5). Bits are only ever set.
   */
  matchBits(token: string, out: Uint32Array): void {
    const n = token.length;
    if (n === 0) return;
    const codes: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = code(token.charCodeAt(i));
      if (c < 0) {
        // Not a [a-z0-9] token (the query tokenizer never makes one): exact but slow path.
        for (let slot = 0; slot < this.size; slot++) if (this.texts[slot]!.includes(token)) setBit(out, slot);
        return;
      }
      codes.push(c);
    }
    if (n <= 2) {
      const gram = n === 1 ? codes[0]! : ALPHABET + codes[0]! * ALPHABET + codes[1]!;
      const base = gram * this.words;
      for (let w = 0; w < this.words; w++) out[w] = out[w]! | this.bits[base + w]!;
      return;
    }
    if (n === 3) {
      const g = codes[0]! * BIGRAMS + codes[1]! * ALPHABET + codes[2]!;
      for (let p = this.triStart[g]!, end = this.triStart[g + 1]!; p < end; p++) setBit(out, this.triPostings[p]!);
      return;
    }
    // Two rarest distinct trigrams; their intersection is a superset of the matches, verified by indexOf.
    let best = -1;
    let second = -1;
    const len = (g: number) => this.triStart[g + 1]! - this.triStart[g]!;
    for (let i = 0; i + 2 < n; i++) {
      const g = codes[i]! * BIGRAMS + codes[i + 1]! * ALPHABET + codes[i + 2]!;
      if (g === best || g === second) continue;
      if (best < 0 || len(g) < len(best)) {
        second = best;
        best = g;
      } else if (second < 0 || len(g) < len(second)) second = g;
    }
    if (len(best) === 0) return;
    let b = second >= 0 ? this.triStart[second]! : 0;
    const bEnd = second >= 0 ? this.triStart[second + 1]! : 0;
    for (let a = this.triStart[best]!, aEnd = this.triStart[best + 1]!; a < aEnd; a++) {
      const slot = this.triPostings[a]!;
      if (second >= 0) {
        while (b < bEnd && this.triPostings[b]! < slot) b++;
        if (b >= bEnd) return;
        if (this.triPostings[b] !== slot) continue;
      }
      if (this.texts[slot]!.includes(token)) setBit(out, slot);
    }
  }

  /** Calls `visit(slot)` for every indexed slot whose text contains `token`, in ascending slot order. */
  match(token: string, visit: (slot: number) => void): void {
    const bits = new Uint32Array(this.words);
    this.matchBits(token, bits);
    forEachBit(bits, visit);
  }
}

export function setBit(bits: Uint32Array, slot: number): void {
  const w = slot >>> 5;
  bits[w] = bits[w]! | (1 << (slot & 31));
}

/** Calls visit(slot) for every set bit, in ascending order. */
export function forEachBit(bits: Uint32Array, visit: (slot: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w]!;
    while (x !== 0) {
      const low = x & -x;
      visit((w << 5) + (31 - Math.clz32(low)));
      x ^= low;
    }
  }
}
