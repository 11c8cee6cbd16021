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

  /**
   * Builds at once from `texts[slot]`, already ASCII-lower-cased (null: nothing to index for that
   * slot); or, with `built`, takes what a SubstringIndexBuild made from those texts.
   */
  constructor(texts: readonly (string | null)[], built?: BuiltParts) {
    if (!built) {
      const build = new SubstringIndexBuild(texts.length, (slot) => texts[slot] ?? null);
      build.step(Infinity);
      built = build.parts();
    }
    this.texts = built.texts;
    this.size = built.texts.length;
    this.words = wordsFor(this.size);
    this.bits = built.bits;
    this.triStart = built.triStart;
    this.triPostings = built.triPostings;
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

interface BuiltParts {
  texts: readonly string[];
  bits: Uint32Array;
  triStart: Uint32Array;
  triPostings: Uint32Array;
}

function wordsFor(size: number): number {
  return Math.max(1, Math.ceil(size / 32));
}

/**
 * A SubstringIndex built a slice at a time (or all at once: `step(Infinity)`). At 100k memories a
 * whole build takes about a second on the thread that answers recalls; RecallCorpus rebuilds an
 * index in slices between the keyword lookups, answering from the old one meanwhile, so no recall
 * waits more than a slice for it.
 *
 * The texts are read when a slot is first reached (pass 1), through `textOf`; a slot whose text
 * changes afterwards must be treated as dirty by the owner (RecallCorpus does), as for a slot
 * changed after a whole build.
 */
export class SubstringIndexBuild {
  private readonly texts: string[] = [];
  private readonly words: number;
  private readonly bits: Uint32Array;
  private readonly counts = new Uint32Array(TRIGRAMS + 1);
  private readonly last = new Int32Array(TRIGRAMS).fill(-1);
  private triStart: Uint32Array | null = null;
  private triPostings: Uint32Array | null = null;
  private fill: Uint32Array | null = null;
  /** Pass 1 (bitsets and trigram counts) over slots [0, size), then pass 2 (postings). */
  private pass: 1 | 2 = 1;
  private next = 0;
  private done = false;

  constructor(
    readonly size: number,
    private readonly textOf: (slot: number) => string | null,
  ) {
    this.words = wordsFor(size);
    this.bits = new Uint32Array((ALPHABET + BIGRAMS) * this.words);
  }

  /** Slots [0, n) have had their text read: a change to one of them must mark it dirty. */
  get slotsRead(): number {
    return this.pass === 1 ? this.next : this.size;
  }

  /** Works until `deadline` (a performance.now() instant) or the end; true when the index is complete. */
  step(deadline: number): boolean {
    // The clock is read every SLOTS_PER_CHECK slots: cheap next to the slots' work, fine enough for a slice.
    while (!this.done) {
      const to = Math.min(this.size, this.next + SLOTS_PER_CHECK);
      if (this.pass === 1) this.countSlots(this.next, to);
      else this.postSlots(this.next, to);
      this.next = to;
      if (to === this.size) this.endPass();
      if (!this.done && performance.now() >= deadline) break;
    }
    return this.done;
  }

  result(): SubstringIndex {
    return new SubstringIndex([], this.parts());
  }

  parts(): BuiltParts {
    if (!this.done) throw new Error('the substring index is not built yet');
    return { texts: this.texts, bits: this.bits, triStart: this.triStart!, triPostings: this.triPostings! };
  }

  private endPass(): void {
    this.next = 0;
    if (this.pass === 2) {
      this.done = true;
      return;
    }
    const triStart = new Uint32Array(TRIGRAMS + 1);
    for (let g = 0; g < TRIGRAMS; g++) triStart[g + 1] = triStart[g]! + this.counts[g + 1]!;
    this.triStart = triStart;
    this.triPostings = new Uint32Array(triStart[TRIGRAMS]!);
    this.fill = triStart.slice(0, TRIGRAMS);
    this.last.fill(-1);
    this.pass = 2;
  }

  /** Pass 1: bitsets, and how many documents hold each trigram. */
  private countSlots(from: number, to: number): void {
    const { bits, counts, last, words } = this;
    for (let slot = from; slot < to; slot++) {
      const t = this.textOf(slot) ?? '';
      this.texts.push(t);
      const w = slot >>> 5;
      const bit = 1 << (slot & 31);
      let c1 = -1;
      let c2 = -1;
      for (let i = 0; i < t.length; i++) {
        const c = code(t.charCodeAt(i));
        if (c >= 0) {
          {
            const k = c * words + w;
            bits[k] = bits[k]! | bit;
          }
          if (c2 >= 0) {
            const k = (ALPHABET + c2 * ALPHABET + c) * words + w;
            bits[k] = bits[k]! | bit;
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
  }

  /** Pass 2: posting lists, in slot order, from the texts pass 1 read. */
  private postSlots(from: number, to: number): void {
    const { last } = this;
    const fill = this.fill!;
    const postings = this.triPostings!;
    for (let slot = from; slot < to; slot++) {
      const t = this.texts[slot]!;
      let c1 = -1;
      let c2 = -1;
      for (let i = 0; i < t.length; i++) {
        const c = code(t.charCodeAt(i));
        if (c >= 0 && c1 >= 0 && c2 >= 0) {
          const g = c1 * BIGRAMS + c2 * ALPHABET + c;
          if (last[g] !== slot) {
            last[g] = slot;
            postings[fill[g]!] = slot;
            fill[g] = fill[g]! + 1;
          }
        }
        c1 = c2;
        c2 = c;
      }
    }
  }
}

/** Slots between two reads of the clock in SubstringIndexBuild.step. */
const SLOTS_PER_CHECK = 256;
