/**
 * The recall corpus as snapshot parts: per live slot, in slot (= rowid) order, what scoring reads
 * (id, rowid, owner, content, type, importance, title, tags, cues, ACT-R timestamps). Decoding
 * these is what costs on a rebuild (nooa's JSON, 64-entry access rings); reading them back is a
 * few typed arrays and string runs.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../store/snapshot-parts.js';
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

export function decodeCorpus(parts: SnapshotParts): CorpusSlots {
  const r = new PartsReader(parts);
  const ids = r.strings('ids');
  const n = ids.length;
  const owners = r.strings('owners', n);
  const contents = r.strings('contents', n);
  const types = r.strings('types', n);
  const titles = r.strings('titles', n);
  const titled = r.typed('titled', Uint8Array, n);
  const importance = r.typed('importance', Float64Array, n);
  const rowids = r.typed('rowids', Float64Array, n);
  const tagCounts = r.typed('tags.count', Uint32Array, n);
  const cueCounts = r.typed('cues.count', Uint32Array, n);
  const actrCounts = r.typed('actr.count', Uint32Array, n);
  const tags = r.strings('tags');
  const cues = r.strings('cues');
  const actr = r.typed('actr', Float64Array);
  const data = new Array<SlotData>(n);
  let t = 0;
  let c = 0;
  let a = 0;
  for (let i = 0; i < n; i++) {
    const tn = tagCounts[i]!;
    const cn = cueCounts[i]!;
    const an = actrCounts[i]!;
    if (t + tn > tags.length || c + cn > cues.length || a + an > actr.length) throw new SnapshotMismatch('slot counts exceed the stored values');
    data[i] = {
      type: types[i]!,
      importance: importance[i]!,
      title: titled[i] ? titles[i]! : null,
      tags: tags.slice(t, t + tn),
      cues: new Set(cues.slice(c, c + cn)),
      actr: actr.slice(a, a + an),
    };
    t += tn;
    c += cn;
    a += an;
  }
  if (t !== tags.length || c !== cues.length || a !== actr.length) throw new SnapshotMismatch('stored slot values left over');
  return { ids, rowids: Array.from(rowids), owners, contents, data };
}
