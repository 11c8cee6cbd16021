/**
 * The recall corpus as snapshot parts: per live slot, in slot (= rowid) order, what scoring reads
 * (id, rowid, owner, content, type, importance, title, tags, cues, ACT-R timestamps). Decoding
 * these is what costs on a rebuild (nooa's JSON, 64-entry access rings); reading them back is a
 * few typed arrays and string runs, and a slot's fields become an object only when scoring reads
 * them.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type SnapshotParts, type StringRun } from '../store/derived/snapshot-parts.js';
import type { SlotData } from './slot-data.js';

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
    w.strings('ids', slots.ids) &&
    w.strings('owners', slots.owners) &&
    w.strings('contents', slots.contents) &&
    w.strings('types', data.map((d) => d.type)) &&
    w.strings('titles', data.map((d) => d.title ?? '')) &&
    w.strings('tags', data.flatMap((d) => d.tags)) &&
    w.strings('cues', data.flatMap((d) => [...d.cues]));
  if (!ok) return null;
  w.typed('rowids', Float64Array.from(slots.rowids));
  w.typed('importance', Float64Array.from(data, (d) => d.importance));
  w.typed('titled', Uint8Array.from(data, (d) => (d.title === null ? 0 : 1)));
  w.typed('tags.count', Uint32Array.from(data, (d) => d.tags.length));
  w.typed('cues.count', Uint32Array.from(data, (d) => d.cues.size));
  w.typed('actr.count', Uint32Array.from(data, (d) => d.actr.length));
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
    private readonly types: StringRun,
    private readonly titles: StringRun,
    private readonly titled: Uint8Array,
    private readonly importance: Float64Array,
    private readonly tags: StringRun,
    private readonly tagStarts: Float64Array,
    private readonly cues: StringRun,
    private readonly cueStarts: Float64Array,
    private readonly actr: (from: number, to: number) => Float64Array,
    private readonly actrStarts: Float64Array,
  ) {}

  /** A slot's fields; its access times are read from the snapshot's file now (throws SnapshotMismatch when they are damaged). */
  get(i: number): SlotData {
    return { type: this.types.get(i), importance: this.importance[i]!, title: this.title(i), tags: this.tagsOf(i), cues: new Set(this.cues.range(this.cueStarts[i]!, this.cueStarts[i + 1]!)), actr: this.actr(this.actrStarts[i]!, this.actrStarts[i + 1]!) };
  }

  title(i: number): string | null {
    return this.titled[i] ? this.titles.get(i) : null;
  }

  tagsOf(i: number): string[] {
    return this.tags.range(this.tagStarts[i]!, this.tagStarts[i + 1]!);
  }
}

export interface StoredCorpus {
  ids: string[];
  rowids: number[];
  owners: string[];
  contents: string[];
  data: StoredSlotData;
}

export function decodeCorpus(parts: PartSource): StoredCorpus {
  const r = new PartsReader(parts);
  const ids = r.strings('ids');
  const n = ids.length;
  const owners = r.strings('owners', n);
  const contents = r.strings('contents', n);
  const types = r.stringRun('types', n);
  const titles = r.stringRun('titles', n);
  const titled = r.typed('titled', Uint8Array, n);
  const importance = r.typed('importance', Float64Array, n);
  const rowids = r.typed('rowids', Float64Array, n);
  const tagStarts = prefixSums(r.typed('tags.count', Uint32Array, n));
  const cueStarts = prefixSums(r.typed('cues.count', Uint32Array, n));
  const actrStarts = prefixSums(r.typed('actr.count', Uint32Array, n));
  const tags = r.stringRun('tags');
  const cues = r.stringRun('cues');
  // The access times (8 MB at 100k) are read per slot when scoring first reads that slot: a recall scores a few hundred.
  const actr = (from: number, to: number) => r.typedRange('actr', Float64Array, from, to);
  if (tagStarts[n] !== tags.length || cueStarts[n] !== cues.length || actrStarts[n] !== r.lengthOf('actr', Float64Array)) throw new SnapshotMismatch('slot counts do not add up to the stored values');
  const data = new StoredSlotData(types, titles, titled, importance, tags, tagStarts, cues, cueStarts, actr, actrStarts);
  return { ids, rowids: Array.from(rowids), owners, contents, data };
}
