/**
 * An exact in-memory substring index answering nooa's keyword leg, `lower(text) LIKE '%tok%'`,
 * for tokens made of [a-z0-9]. A full-scan LIKE costs ~90 ms per token on 100k memories; this
 * answers with the same ids in the same (slot = rowid) order, and never reads a memory's text:
 *   - 1- and 2-character tokens: one bitset per gram (36 + 1296 bitsets), read directly;
 *   - longer tokens: the words that contain the token, then those words' memories.
 * A [a-z0-9] token can only occur inside one run of [a-z0-9] characters, so a text contains it
 * exactly when one of its words (its maximal runs, 3 characters or more) does. The index keeps the
 * distinct words, each word's memories, and a trigram index over the words themselves: a token's
 * words are the intersection of its two rarest trigrams' word lists, checked with indexOf on the
 * word. Trigram postings over the memories, verified against each memory's text, were the way
 * before: at a million memories the demo's common words matched 10⁵ memories each, and checking
 * them took 15 to 50 ms a token. A vocabulary is far smaller than the texts it comes from.
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
  /** The distinct words of 3 characters or more, by word id. */
  private readonly vocabulary: readonly string[];
  /** Word id → the slots whose text holds it, ascending: entries [slotStart[id], slotStart[id + 1]) of `wordSlots`. */
  private readonly slotStart: Uint32Array;
  private readonly wordSlots: Uint32Array;
  /** Trigram → the word ids that hold it, ascending: entries [triStart[g], triStart[g + 1]) of `triWords`. */
  private readonly triStart: Uint32Array;
  private readonly triWords: Uint32Array;

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
    this.vocabulary = built.vocabulary;
    this.slotStart = built.slotStart;
    this.wordSlots = built.wordSlots;
    this.triStart = built.triStart;
    this.triWords = built.triWords;
  }

  /** Approximate memory held, in bytes (for diagnostics; the words' strings not counted). */
  get bytes(): number {
    return this.bits.byteLength + this.slotStart.byteLength + this.wordSlots.byteLength + this.triStart.byteLength + this.triWords.byteLength;
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
    this.forEachWordWith(token, codes, (word) => {
      for (let p = this.slotStart[word]!, end = this.slotStart[word + 1]!; p < end; p++) setBit(out, this.wordSlots[p]!);
    });
  }

  /** Calls `visit(id)` for every word of the vocabulary that contains `token` (3 characters or more, all [a-z0-9]; `codes` its letters' codes). */
  private forEachWordWith(token: string, codes: readonly number[], visit: (word: number) => void): void {
    const n = codes.length;
    const { triStart, triWords } = this;
    if (n === 3) {
      const g = codes[0]! * BIGRAMS + codes[1]! * ALPHABET + codes[2]!;
      for (let p = triStart[g]!, end = triStart[g + 1]!; p < end; p++) visit(triWords[p]!);
      return;
    }
    // Two rarest distinct trigrams; the words in both are a superset of the matches, checked by indexOf.
    let best = -1;
    let second = -1;
    const len = (g: number) => triStart[g + 1]! - triStart[g]!;
    for (let i = 0; i + 2 < n; i++) {
      const g = codes[i]! * BIGRAMS + codes[i + 1]! * ALPHABET + codes[i + 2]!;
      if (g === best || g === second) continue;
      if (best < 0 || len(g) < len(best)) {
        second = best;
        best = g;
      } else if (second < 0 || len(g) < len(second)) second = g;
    }
    let b = second >= 0 ? triStart[second]! : 0;
    const bEnd = second >= 0 ? triStart[second + 1]! : 0;
    for (let a = triStart[best]!, aEnd = triStart[best + 1]!; a < aEnd; a++) {
      const word = triWords[a]!;
      if (second >= 0) {
        while (b < bEnd && triWords[b]! < word) b++;
        if (b >= bEnd) return;
        if (triWords[b] !== word) continue;
      }
      if (this.vocabulary[word]!.includes(token)) visit(word);
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
  vocabulary: readonly string[];
  slotStart: Uint32Array;
  wordSlots: Uint32Array;
  triStart: Uint32Array;
  triWords: Uint32Array;
}

function wordsFor(size: number): number {
  return Math.max(1, Math.ceil(size / 32));
}

/** Shortest word the vocabulary keeps: shorter tokens are answered by the 1- and 2-gram bitsets. */
const MIN_WORD = 3;

/**
 * A SubstringIndex built a slice at a time (or all at once: `step(Infinity)`). At 100k memories a
 * whole build takes about a second on the thread that answers recalls; RecallCorpus rebuilds an
 * index in slices between the keyword lookups, answering from the old one meanwhile, so no recall
 * waits more than a slice for it.
 *
 * Pass 1 reads each slot's text, when first reached, through `textOf` (a slot whose text changes
 * afterwards must be treated as dirty by the owner, RecallCorpus does, as for a slot changed after
 * a whole build): its 1- and 2-gram bits, and its distinct words, which join the vocabulary. Pass
 * 2 turns the slots' words into each word's ascending slots, and pass 3 indexes the vocabulary's
 * words by trigram. No pass reads a text again.
 */
export class SubstringIndexBuild {
  private readonly texts: string[] = [];
  private readonly words: number;
  private readonly bits: Uint32Array;
  private readonly vocabulary: string[] = [];
  private readonly wordIds = new Map<string, number>();
  /** Per word id: its number of slots (pass 1), then where its next slot goes (pass 2). */
  private wordCounts = new Uint32Array(1024);
  /** Per word id: the last slot that counted it, so a word repeated in a text counts once. */
  private lastSlot = new Int32Array(1024).fill(-1);
  /** Each slot's distinct word ids, slot after slot: entries [slotWordsEnd[s − 1], slotWordsEnd[s]). */
  private slotWords = new Uint32Array(4096);
  private slotWordCount = 0;
  private readonly slotWordsEnd: Uint32Array;
  private slotStart: Uint32Array | null = null;
  private wordSlots: Uint32Array | null = null;
  private triStart: Uint32Array | null = null;
  private triWords: Uint32Array | null = null;
  private readonly triCounts = new Uint32Array(TRIGRAMS + 1);
  private readonly triLast = new Int32Array(TRIGRAMS).fill(-1);
  /** Pass 1 (bitsets and words) over slots [0, size), pass 2 (each word's slots) over the slots, then pass 3 (trigrams) over the words, twice: counted, then filled. */
  private pass: 1 | 2 | 3 | 4 = 1;
  private next = 0;
  private done = false;

  constructor(
    readonly size: number,
    private readonly textOf: (slot: number) => string | null,
  ) {
    this.words = wordsFor(size);
    this.bits = new Uint32Array((ALPHABET + BIGRAMS) * this.words);
    this.slotWordsEnd = new Uint32Array(size);
  }

  /** Slots [0, n) have had their text read: a change to one of them must mark it dirty. */
  get slotsRead(): number {
    return this.pass === 1 ? this.next : this.size;
  }

  /** Works until `deadline` (a performance.now() instant) or the end; true when the index is complete. */
  step(deadline: number): boolean {
    // The clock is read every SLOTS_PER_CHECK slots or words: cheap next to their work, fine enough for a slice.
    while (!this.done) {
      const end = this.pass <= 2 ? this.size : this.vocabulary.length;
      const to = Math.min(end, this.next + SLOTS_PER_CHECK);
      if (this.pass === 1) this.readSlots(this.next, to);
      else if (this.pass === 2) this.postSlots(this.next, to);
      else if (this.pass === 3) this.countTrigrams(this.next, to);
      else this.postTrigrams(this.next, to);
      this.next = to;
      if (to === end) this.endPass();
      if (!this.done && performance.now() >= deadline) break;
    }
    return this.done;
  }

  result(): SubstringIndex {
    return new SubstringIndex([], this.parts());
  }

  parts(): BuiltParts {
    if (!this.done) throw new Error('the substring index is not built yet');
    return {
      texts: this.texts,
      bits: this.bits,
      vocabulary: this.vocabulary,
      slotStart: this.slotStart!,
      wordSlots: this.wordSlots!,
      triStart: this.triStart!,
      triWords: this.triWords!,
    };
  }

  private endPass(): void {
    this.next = 0;
    if (this.pass === 1) {
      const words = this.vocabulary.length;
      const slotStart = new Uint32Array(words + 1);
      for (let id = 0; id < words; id++) slotStart[id + 1] = slotStart[id]! + this.wordCounts[id]!;
      this.slotStart = slotStart;
      this.wordSlots = new Uint32Array(this.slotWordCount);
      // From here on, where each word's next slot goes.
      this.wordCounts = slotStart.slice(0, words);
      this.wordIds.clear();
      this.lastSlot = new Int32Array(0);
      this.pass = 2;
    } else if (this.pass === 2) {
      this.slotWords = new Uint32Array(0);
      this.pass = 3;
    } else if (this.pass === 3) {
      const triStart = new Uint32Array(TRIGRAMS + 1);
      for (let g = 0; g < TRIGRAMS; g++) triStart[g + 1] = triStart[g]! + this.triCounts[g + 1]!;
      this.triStart = triStart;
      this.triWords = new Uint32Array(triStart[TRIGRAMS]!);
      this.triCounts.set(triStart.subarray(0, TRIGRAMS));
      this.triLast.fill(-1);
      this.pass = 4;
    } else {
      this.wordCounts = new Uint32Array(0);
      this.done = true;
    }
  }

  /** Pass 1: each slot's 1- and 2-gram bits, and its distinct words. */
  private readSlots(from: number, to: number): void {
    const { bits, words } = this;
    for (let slot = from; slot < to; slot++) {
      const t = this.textOf(slot) ?? '';
      this.texts.push(t);
      const w = slot >>> 5;
      const bit = 1 << (slot & 31);
      let c2 = -1;
      let runStart = 0;
      for (let i = 0; i <= t.length; i++) {
        const c = i < t.length ? code(t.charCodeAt(i)) : -1;
        if (c >= 0) {
          {
            const k = c * words + w;
            bits[k] = bits[k]! | bit;
          }
          if (c2 >= 0) {
            const k = (ALPHABET + c2 * ALPHABET + c) * words + w;
            bits[k] = bits[k]! | bit;
          } else runStart = i;
        } else if (c2 >= 0 && i - runStart >= MIN_WORD) this.addWord(t.slice(runStart, i), slot);
        c2 = c;
      }
      this.slotWordsEnd[slot] = this.slotWordCount;
    }
  }

  private addWord(word: string, slot: number): void {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.vocabulary.push(word);
      this.wordIds.set(word, id);
      if (id >= this.wordCounts.length) {
        this.wordCounts = grown(this.wordCounts, id + 1);
        const last = new Int32Array(this.wordCounts.length).fill(-1);
        last.set(this.lastSlot);
        this.lastSlot = last;
      }
    }
    if (this.lastSlot[id] === slot) return;
    this.lastSlot[id] = slot;
    this.wordCounts[id] = this.wordCounts[id]! + 1;
    if (this.slotWordCount >= this.slotWords.length) this.slotWords = grown(this.slotWords, this.slotWordCount + 1);
    this.slotWords[this.slotWordCount++] = id;
  }

  /** Pass 2: each word's slots, in slot order, from the words pass 1 found per slot. */
  private postSlots(from: number, to: number): void {
    const fill = this.wordCounts;
    const wordSlots = this.wordSlots!;
    let p = from === 0 ? 0 : this.slotWordsEnd[from - 1]!;
    for (let slot = from; slot < to; slot++) {
      for (const end = this.slotWordsEnd[slot]!; p < end; p++) {
        const id = this.slotWords[p]!;
        wordSlots[fill[id]!] = slot;
        fill[id] = fill[id]! + 1;
      }
    }
  }

  /** Pass 3: how many words hold each trigram. */
  private countTrigrams(from: number, to: number): void {
    for (let id = from; id < to; id++) this.eachTrigram(id, (g) => (this.triCounts[g + 1] = this.triCounts[g + 1]! + 1));
  }

  /** Pass 4: each trigram's words, in word id order. */
  private postTrigrams(from: number, to: number): void {
    const fill = this.triCounts;
    const triWords = this.triWords!;
    for (let id = from; id < to; id++) {
      this.eachTrigram(id, (g) => {
        triWords[fill[g]!] = id;
        fill[g] = fill[g]! + 1;
      });
    }
  }

  /** Calls `visit(g)` once for each distinct trigram of word `id`. */
  private eachTrigram(id: number, visit: (g: number) => void): void {
    const word = this.vocabulary[id]!;
    const last = this.triLast;
    let c1 = code(word.charCodeAt(0));
    let c2 = code(word.charCodeAt(1));
    for (let i = 2; i < word.length; i++) {
      const c = code(word.charCodeAt(i));
      const g = c1 * BIGRAMS + c2 * ALPHABET + c;
      if (last[g] !== id) {
        last[g] = id;
        visit(g);
      }
      c1 = c2;
      c2 = c;
    }
  }
}

/** A copy of `a`, at least `need` long (doubling, so appends cost amortised constant time). */
function grown(a: Uint32Array, need: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Slots (or words) between two reads of the clock in SubstringIndexBuild.step. */
const SLOTS_PER_CHECK = 256;
