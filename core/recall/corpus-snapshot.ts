/**
 * The recall corpus as snapshot parts: per live slot, in slot (= rowid) order, what scoring reads
 * (id, rowid, owner, content, type, importance, title, tags, cues, ACT-R timestamps). Decoding
 * these is what costs on a rebuild (nooa's JSON, 64-entry access rings); reading them back is a
 * few typed arrays and string runs, and a slot's fields become an object only when scoring reads
 * them.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type RangedStrings, type SnapshotParts, type StringEntries } from '../store/derived/snapshot-parts.js';
import { readIndexedStrings, readStoredStrings, writeIndexedStrings, type StoredStrings } from '../store/derived/stored-strings.js';
import type { SlotData } from './slot-data.js';
import { asciiLower } from './tokens.js';
import { setBit } from './substring-index.js';
import { StoredContents, StoredSlotWords, writeSlotWords, type CorpusTexts } from './stored-contents.js';

export interface CorpusSlots {
  ids: string[];
  rowids: number[];
  owners: string[];
  contents: string[];
  data: SlotData[];
}

export function encodeCorpus(slots: CorpusSlots): SnapshotParts | null {
  const { data } = slots;
  const n = slots.ids.length;
  const w = new PartsWriter();
  const ok =
    writeIndexedStrings(w, 'ids', slots.ids) &&
    w.strings('owners', slots.owners) &&
    w.utf8Ranged('contents', slots.contents) &&
    w.utf8Ranged('types', data.map((d) => d.type)) &&
    w.utf8Ranged('titles', data.map((d) => d.title ?? '')) &&
    w.utf8Ranged('tags', data.flatMap((d) => d.tags)) &&
    w.utf8Ranged('cues', data.flatMap((d) => [...d.cues]));
  if (!ok) return null;
  // What lets a reader leave the texts, titles and tags unread: each word's slots (stored-contents.ts).
  // A slot's tags are one text, joined by a newline, which no keyword token spans.
  writeSlotWords(w, 'words', slots.contents);
  writeSlotWords(w, 'title_words', data.map((d) => d.title ?? ''));
  writeSlotWords(w, 'tag_words', data.map((d) => d.tags.join('\n')));
  w.typed('rowids', Float64Array.from(slots.rowids));
  w.typed('importance', Float64Array.from(data, (d) => d.importance));
  w.typed('titled', Uint8Array.from(data, (d) => (d.title === null ? 0 : 1)));
  // Where each slot's tags, cues and access times start, not how many: a reader reads two of them per slot, and nothing up front.
  w.typed('tags.slots', prefixSums(Uint32Array.from(data, (d) => d.tags.length)));
  w.typed('cues.slots', prefixSums(Uint32Array.from(data, (d) => d.cues.size)));
  w.typed('actr.slots', prefixSums(Uint32Array.from(data, (d) => d.actr.length)));
  const actr = new Float64Array(data.reduce((sum, d) => sum + d.actr.length, 0));
  let at = 0;
  for (const d of data) {
    actr.set(d.actr, at);
    at += d.actr.length;
  }
  w.typed('actr', actr);
  if (data.length !== n) return null;
  return w.parts;
}

/**
 * The scoring fields of the slots of a snapshot, read per slot when scoring asks for it: a
 * recall reads a few hundred of them, and building 100k objects (a Set and a typed array each)
 * up front cost more than the rest of reading the snapshot.
 */
export class StoredSlotData {
  constructor(
    private readonly types: StringEntries,
    private readonly titles: RangedStrings,
    private readonly titleWords: StoredSlotWords,
    private readonly titled: Uint8Array,
    private readonly importance: Float64Array,
    private readonly tags: RangedStrings,
    private readonly tagSlots: (i: number) => [number, number],
    private readonly tagWords: StoredSlotWords,
    private readonly cues: StringEntries,
    /** Slot i's cues are entries [cueSlots(i), cueSlots(i + 1)) of `cues`; its access times, [actrSlots(i) ...) of `actr`. */
    private readonly cueSlots: (i: number) => [number, number],
    private readonly actr: (from: number, to: number) => Float64Array,
    private readonly actrSlots: (i: number) => [number, number],
  ) {}

  /** A slot's fields, read from the snapshot's file now (throws SnapshotMismatch when they are damaged). */
  get(i: number): SlotData {
    const [cueFrom, cueTo] = this.cueSlots(i);
    const [actrFrom, actrTo] = this.actrSlots(i);
    return { type: this.types.get(i), importance: this.importance[i]!, title: this.title(i), tags: this.tagsOf(i), cues: new Set(this.cues.range(cueFrom, cueTo)), actr: this.actr(actrFrom, actrTo) };
  }

  title(i: number): string | null {
    return this.titled[i] ? this.titles.get(i) : null;
  }

  tagsOf(i: number): string[] {
    const [from, to] = this.tagSlots(i);
    return this.tags.range(from, to);
  }

  /** Sets the bit of every slot whose title (a slot without one has '') contains `word`, ASCII case aside. */
  titleMatches(word: string, out: Uint32Array): void {
    if (this.titleWords.setContaining(word, out)) return;
    // Not a query's token (those are [a-z0-9] runs): every title read.
    for (let i = 0; i < this.titled.length; i++) if (asciiLower(this.titles.get(i)).includes(word)) setBit(out, i);
  }

  /** Sets the bit of every slot one of whose tags contains `word`, ASCII case aside. */
  tagMatches(word: string, out: Uint32Array): void {
    if (this.tagWords.setContaining(word, out)) return;
    for (let i = 0; i < this.titled.length; i++) if (this.tagsOf(i).some((t) => asciiLower(t).includes(word))) setBit(out, i);
  }
}

/**
 * A corpus snapshot read back: the slots' ids and owners stay the bytes read (StoredStrings) until
 * the corpus first changes, and an id's slot is found by its bytes' hash; the texts are read as
 * the keyword leg and the results need them (StoredContents).
 */
export interface StoredCorpus {
  ids: StoredStrings;
  rowids: Float64Array;
  owners: StoredStrings;
  /** Replaced by the texts read from the store when the snapshot's turn out damaged (RecallCorpus.withTexts). */
  contents: CorpusTexts;
  data: StoredSlotData;
}

export function decodeCorpus(parts: PartSource): StoredCorpus {
  const r = new PartsReader(parts);
  const ids = readIndexedStrings(r, 'ids');
  const n = ids.length;
  const owners = readStoredStrings(r, 'owners', n);
  const contents = new StoredContents(r, n);
  // Read per slot when scoring reads that slot (a recall scores a few hundred): types, titles, tags, cues, access times.
  const types = r.rangedStrings('types', n);
  const titles = r.rangedStrings('titles', n);
  const titled = r.typed('titled', Uint8Array, n);
  const importance = r.typed('importance', Float64Array, n);
  const rowids = r.typed('rowids', Float64Array, n);
  const tags = r.rangedStrings('tags');
  const cues = r.rangedStrings('cues');
  const actrCount = r.lengthOf('actr', Float64Array);
  const slotRange = (part: string, total: number) => {
    if (r.lengthOf(part, Float64Array) !== n + 1) throw new SnapshotMismatch(`snapshot part ${part} does not hold one start per slot`);
    return (i: number): [number, number] => {
      const [from, to] = r.typedRange(part, Float64Array, i, i + 2);
      if (!(from! >= 0 && from! <= to! && to! <= total)) throw new SnapshotMismatch(`snapshot part ${part} places slot ${i} outside its values`);
      return [from!, to!];
    };
  };
  const tagSlots = slotRange('tags.slots', tags.length);
  const cueSlots = slotRange('cues.slots', cues.length);
  const actrSlots = slotRange('actr.slots', actrCount);
  // The access times (8 MB at 100k) are read per slot when scoring first reads that slot.
  const actr = (from: number, to: number) => r.typedRange('actr', Float64Array, from, to);
  const last = (part: string) => r.typedRange(part, Float64Array, n, n + 1)[0];
  if (last('tags.slots') !== tags.length || last('cues.slots') !== cues.length || last('actr.slots') !== actrCount) throw new SnapshotMismatch('slot counts do not add up to the stored values');
  const data = new StoredSlotData(types, titles, new StoredSlotWords(r, 'title_words', n), titled, importance, tags, tagSlots, new StoredSlotWords(r, 'tag_words', n), cues, cueSlots, actr, actrSlots);
  return { ids, rowids, owners, contents, data };
}
