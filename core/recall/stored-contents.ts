/**
 * The memories' texts of a corpus snapshot, read as little as a recall needs. The texts are the
 * largest part of the snapshot (92 MB at a million demo memories): reading them whole, lower-casing
 * a copy and scanning it for each query token was a third of the first recall after an open there,
 * on machines where touching fresh memory costs milliseconds a megabyte. So the snapshot also keeps
 * each text's byte start, and the distinct words of the texts with the slots that hold each word:
 * - one text is read alone (the few a recall shows);
 * - a keyword token made of [a-z0-9] is answered from the words that contain it, since such a token
 *   can only occur inside one maximal [a-z0-9] run of the lower-cased text (substring-index.ts
 *   uses the same fact);
 * - anything else (a token with other characters, every text at once) reads the texts whole, once.
 * The corpus keeps the same word lists for titles and tags (corpus-snapshot.ts).
 */
import { prefixSums, SnapshotMismatch, type PartsReader, type PartsWriter, type RangedStrings } from '../store/derived/snapshot-parts.js';
import { readStoredStrings, StoredStrings } from '../store/derived/stored-strings.js';
import { setBit } from './substring-index.js';
import { asciiLower } from './tokens.js';

const KEYWORD_TOKEN = /^[a-z0-9]+$/;
const WORD = /[a-z0-9]+/g;

/** The word lists encodeSlotWords makes of one text per slot. */
export interface SlotWords {
  /** The distinct maximal [a-z0-9] runs of the ASCII-lower-cased texts, in order of first appearance. */
  vocabulary: string[];
  /** Per word, how many slots hold it. */
  counts: Uint32Array;
  /** Per word in vocabulary order, the slots that hold it, ascending. */
  slots: Uint32Array;
}

/** The word lists of one text per slot (slot order). */
export function encodeSlotWords(texts: readonly string[]): SlotWords {
  const n = texts.length;
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  let counts = new Uint32Array(1024);
  let lastSlot = new Int32Array(1024).fill(-1);
  // Each slot's distinct word ids, back to back; slot s's end where slotEnds[s] says.
  let seq = new Uint32Array(Math.max(1024, n * 4));
  const slotEnds = new Uint32Array(n);
  let used = 0;
  for (let s = 0; s < n; s++) {
    for (const m of asciiLower(texts[s]!).matchAll(WORD)) {
      const word = m[0];
      let id = ids.get(word);
      if (id === undefined) {
        id = vocabulary.push(word) - 1;
        ids.set(word, id);
        if (id === counts.length) {
          counts = grown(counts, counts.length * 2);
          lastSlot = grown(lastSlot, lastSlot.length * 2, -1);
        }
      }
      if (lastSlot[id] === s) continue;
      lastSlot[id] = s;
      counts[id]!++;
      if (used === seq.length) seq = grown(seq, seq.length * 2);
      seq[used++] = id;
    }
    slotEnds[s] = used;
  }
  counts = counts.slice(0, vocabulary.length);
  const fill = prefixSums(counts);
  const slots = new Uint32Array(used);
  for (let s = 0, k = 0; s < n; s++) {
    for (; k < slotEnds[s]!; k++) slots[fill[seq[k]!]!++] = s;
  }
  return { vocabulary, counts, slots };
}

/** Writes the word lists of one text per slot as `<name>` (the words), `<name>.count` and `<name>.slots`. */
export function writeSlotWords(w: PartsWriter, name: string, texts: readonly string[]): void {
  const words = encodeSlotWords(texts);
  // The words are [a-z0-9] runs: always well-formed.
  w.strings(name, words.vocabulary);
  w.typed(`${name}.count`, words.counts);
  w.typed(`${name}.slots`, words.slots);
}

/** Word lists written by writeSlotWords, read when the first token asks; each word's slots read when a token needs them. */
export class StoredSlotWords {
  private words: { list: StoredStrings; starts: Float64Array } | null = null;

  constructor(
    private readonly r: PartsReader,
    private readonly name: string,
    private readonly slots: number,
  ) {}

  /**
   * Sets in `out` the bit of every slot whose ASCII-lower-cased text contains `token`; false,
   * setting nothing, when the token is not a [a-z0-9] run (the lists cannot answer it).
   */
  setContaining(token: string, out: Uint32Array): boolean {
    if (!KEYWORD_TOKEN.test(token)) return false;
    const { list, starts } = this.lists();
    list.forEachContaining(token, (w) => {
      const slots = this.r.typedRange(`${this.name}.slots`, Uint32Array, starts[w]!, starts[w + 1]!);
      for (let k = 0; k < slots.length; k++) {
        const s = slots[k]!;
        if (s >= this.slots) throw new SnapshotMismatch(`snapshot part ${this.name}.slots names slot ${s} of ${this.slots}`);
        setBit(out, s);
      }
    });
    return true;
  }

  private lists(): { list: StoredStrings; starts: Float64Array } {
    if (this.words) return this.words;
    const list = readStoredStrings(this.r, this.name);
    const starts = prefixSums(this.r.typed(`${this.name}.count`, Uint32Array, list.length));
    if (starts[list.length] !== this.r.lengthOf(`${this.name}.slots`, Uint32Array)) throw new SnapshotMismatch(`snapshot part ${this.name}.slots does not hold every word count`);
    return (this.words = { list, starts });
  }
}

function grown<T extends Uint32Array | Int32Array>(a: T, size: number, fillWith = 0): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  if (fillWith !== 0) out.fill(fillWith, a.length);
  return out;
}

/** A corpus's texts by slot, however they are held. */
export interface CorpusTexts {
  readonly length: number;
  get(i: number): string;
  toArray(): string[];
  /** Sets in `out` the bit of every slot whose ASCII-lower-cased text contains `token`. */
  setContaining(token: string, out: Uint32Array): void;
}

/** Texts held as strings: what a corpus falls back to when its snapshot's texts turn out damaged. */
export class TextsInMemory implements CorpusTexts {
  constructor(private readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length;
  }

  get(i: number): string {
    return this.texts[i]!;
  }

  toArray(): string[] {
    return [...this.texts];
  }

  setContaining(token: string, out: Uint32Array): void {
    for (let s = 0; s < this.texts.length; s++) if (asciiLower(this.texts[s]!).includes(token)) setBit(out, s);
  }
}

/** The snapshot's texts, each read when asked for; see the file's comment. */
export class StoredContents implements CorpusTexts {
  private whole: StoredStrings | null = null;
  private readonly texts: RangedStrings;
  private readonly words: StoredSlotWords;

  constructor(r: PartsReader, readonly length: number) {
    this.texts = r.rangedStrings('contents', length);
    this.words = new StoredSlotWords(r, 'words', length);
  }

  /** Text i (throws SnapshotMismatch when its bytes are damaged). */
  get(i: number): string {
    // Two of the starts and the text's bytes, not all of them: a recall shows a few texts (100 MB at a million).
    return this.whole ? this.whole.get(i) : this.texts.get(i);
  }

  /** Every text, in slot order (reads them whole). */
  toArray(): string[] {
    return this.all().toArray();
  }

  setContaining(token: string, out: Uint32Array): void {
    if (this.words.setContaining(token, out)) return;
    // Never a query's token (they are [a-z0-9] runs), so the plain way: each text decoded.
    const all = this.all();
    for (let s = 0; s < this.length; s++) if (asciiLower(all.get(s)).includes(token)) setBit(out, s);
  }

  private all(): StoredStrings {
    return (this.whole ??= StoredStrings.fromByteStarts(this.texts.allStarts(), this.texts.allBytes(), 'contents'));
  }
}
