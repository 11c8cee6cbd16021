/**
 * The recall corpus: what scoring needs from every live memory, held in memory in rowid order
 * (= nooa's tie order) and kept in step with the store through the Derived pattern. Reading and
 * decoding ~100 candidate rows per query costs several milliseconds at 100k memories (the rows
 * carry 64-entry access rings); here a candidate's terms are a few array reads.
 *
 * Per slot: id, rowid, owner, type, importance, content, title, tags, cue set and the timestamps
 * of the ring entries that feed ACT-R. The keyword leg's substring indexes (one per field set)
 * are built lazily over the same slots; slots changed after a build are scanned directly until
 * enough have changed to make a rebuild worthwhile.
 */
import { ACTR_CHANNELS, type AccessChannel } from '../model/enums.js';
import { cueSet } from '../model/memory.js';
import type { DerivedIndex } from '../engine/derived.js';
import type { MemoryStore } from '../store/store.js';
import type { SparseField } from './profile.js';
import { SubstringIndex } from './substring-index.js';
import { asciiLower } from './tokens.js';

interface CorpusRow {
  rowid: number;
  id: string;
  owner: string;
  content: string;
  archived?: number;
  data: string;
}

interface SlotData {
  type: string;
  importance: number;
  title: string | null;
  tags: string[];
  cues: Set<string>;
  actr: Float64Array;
}

class KeywordView {
  index: SubstringIndex | null = null;
  /** Slots whose text changed after the index was built (their postings are stale). */
  readonly dirty = new Set<number>();
  constructor(readonly fields: readonly SparseField[]) {}
}

const LOAD_SQL = 'SELECT rowid, id, owner, content, data FROM memories WHERE archived = 0 ORDER BY rowid';
const ROW_SQL = 'SELECT rowid, id, owner, content, archived, data FROM memories WHERE id = ?';

export class RecallCorpus implements DerivedIndex {
  ids: string[] = [];
  rowids: number[] = [];
  owners: string[] = [];
  contents: string[] = [];
  data: SlotData[] = [];
  alive = new Uint8Array(0);
  private readonly slotOf = new Map<string, number>();
  private views = new Map<string, KeywordView>();
  private lowered: (string | null)[] = [];
  private store: MemoryStore | null = null;
  private needsReload = false;

  get size(): number {
    return this.ids.length;
  }

  load(store: MemoryStore): void {
    this.store = store;
    this.ids = [];
    this.rowids = [];
    this.owners = [];
    this.contents = [];
    this.data = [];
    this.lowered = [];
    this.slotOf.clear();
    this.views = new Map();
    this.needsReload = false;
    for (const row of store.db.prepare(LOAD_SQL).iterate() as Iterable<CorpusRow>) this.append(store, row);
    this.alive = new Uint8Array(Math.max(1024, this.ids.length * 2));
    this.alive.fill(1, 0, this.ids.length);
  }

  update(store: MemoryStore, id: string): void {
    this.store = store;
    const row = store.statement(ROW_SQL).get(id) as CorpusRow | undefined;
    const slot = this.slotOf.get(id);
    if (!row || row.archived) {
      if (slot !== undefined) this.alive[slot] = 0;
      return;
    }
    if (slot !== undefined && this.rowids[slot] === row.rowid) {
      const before = this.textParts(slot);
      this.fillSlot(store, slot, row);
      this.alive[slot] = 1;
      if (before !== this.textParts(slot)) this.markDirty(slot);
      return;
    }
    if (slot !== undefined) this.alive[slot] = 0;
    const lastRowid = this.rowids.length ? this.rowids[this.rowids.length - 1]! : -Infinity;
    // Slot order must stay rowid order; an older rowid coming back (a restore) means a rebuild.
    if (row.rowid <= lastRowid) {
      this.needsReload = true;
      return;
    }
    const s = this.append(store, row);
    if (this.alive.length <= s) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[s] = 1;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot !== undefined) this.alive[slot] = 0;
  }

  /** Rebuilds when an update could not keep slot order (call before every use). */
  ensureFresh(): void {
    if (this.needsReload && this.store) this.load(this.store);
  }

  hasLive(): boolean {
    for (let s = 0; s < this.ids.length; s++) if (this.alive[s] === 1) return true;
    return false;
  }

  slot(id: string): number | undefined {
    const s = this.slotOf.get(id);
    return s !== undefined && this.alive[s] === 1 ? s : undefined;
  }

  /** Calls visit(slot) for every live slot whose chosen fields contain `token`, in rowid order. */
  match(fields: readonly SparseField[], token: string, visit: (slot: number) => void): void {
    const view = this.view(fields);
    const index = view.index!;
    const alive = this.alive;
    const dirty = view.dirty;
    const extra: number[] = [];
    for (const s of dirty) if (alive[s] === 1 && this.text(view, s).includes(token)) extra.push(s);
    for (let s = index.size; s < this.ids.length; s++) if (alive[s] === 1 && this.text(view, s).includes(token)) extra.push(s);
    if (extra.length === 0) {
      index.match(token, (s) => {
        if (alive[s] === 1 && (dirty.size === 0 || !dirty.has(s))) visit(s);
      });
      return;
    }
    extra.sort((a, b) => a - b);
    let i = 0;
    index.match(token, (s) => {
      if (alive[s] !== 1 || dirty.has(s)) return;
      while (i < extra.length && extra[i]! < s) visit(extra[i++]!);
      visit(s);
    });
    while (i < extra.length) visit(extra[i++]!);
  }

  /** The ASCII-lower-cased text the keyword leg reads for a slot under a field set. */
  text(view: { fields: readonly SparseField[] }, slot: number): string {
    if (view.fields.length === 1 && view.fields[0] === 'content') return (this.lowered[slot] ??= asciiLower(this.contents[slot]!));
    const d = this.data[slot]!;
    const parts: string[] = [];
    for (const f of view.fields) {
      if (f === 'content') parts.push(this.contents[slot]!);
      else if (f === 'title' && d.title) parts.push(d.title);
      else if (f === 'tags' && d.tags.length) parts.push(d.tags.join('\n'));
    }
    // Newlines cannot be part of a [a-z0-9] token, so no match spans two fields.
    return asciiLower(parts.join('\n'));
  }

  private view(fields: readonly SparseField[]): KeywordView {
    const key = fields.join('+');
    let view = this.views.get(key);
    if (!view) this.views.set(key, (view = new KeywordView(fields)));
    const unindexed = view.index ? view.dirty.size + (this.ids.length - view.index.size) : Infinity;
    if (!view.index || unindexed > Math.max(512, this.ids.length / 100)) {
      const texts: (string | null)[] = [];
      for (let s = 0; s < this.ids.length; s++) texts.push(this.alive[s] === 1 ? this.text(view, s) : null);
      view.index = new SubstringIndex(texts);
      view.dirty.clear();
    }
    return view;
  }

  private markDirty(slot: number): void {
    this.lowered[slot] = null;
    for (const v of this.views.values()) if (v.index && slot < v.index.size) v.dirty.add(slot);
  }

  private textParts(slot: number): string {
    const d = this.data[slot]!;
    return `${this.contents[slot]}\u0000${d.title ?? ''}\u0000${d.tags.join('\u0001')}`;
  }

  private append(store: MemoryStore, row: CorpusRow): number {
    const slot = this.ids.length;
    this.ids.push(row.id);
    this.rowids.push(row.rowid);
    this.owners.push(row.owner);
    this.contents.push(row.content);
    this.lowered.push(null);
    this.slotOf.set(row.id, slot);
    this.fillSlot(store, slot, row);
    return slot;
  }

  private fillSlot(store: MemoryStore, slot: number, row: CorpusRow): void {
    this.owners[slot] = row.owner;
    this.contents[slot] = row.content;
    this.lowered[slot] = null;
    this.data[slot] = slotData(store, row);
  }
}

/** Reads what scoring needs from nooa's `data` JSON; an unreadable row goes through the store's lenient decoder. */
function slotData(store: MemoryStore, row: CorpusRow): SlotData {
  let d: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(row.data) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) d = parsed as Record<string, unknown>;
  } catch {
    d = null;
  }
  const log = d && Array.isArray(d['access_log']) ? (d['access_log'] as unknown[]) : null;
  const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : v == null ? [] : null);
  const tags = d ? strings(d['tags']) : null;
  const entities = d ? strings(d['entities']) : null;
  const place = d?.['place_or_task'];
  const importance = d?.['importance'];
  if (!d || !log || !tags || !entities || (place != null && typeof place !== 'string') || typeof importance !== 'number' || typeof d['type'] !== 'string') {
    const m = store.get(row.id);
    if (!m) return { type: 'info', importance: 5, title: null, tags: [], cues: new Set(), actr: new Float64Array(0) };
    return { type: m.type, importance: m.importance, title: m.title, tags: m.tags, cues: cueSet(m), actr: actrTimes(m.access_log) };
  }
  const title = typeof d['title'] === 'string' ? d['title'] : null;
  return {
    type: d['type'],
    importance,
    title,
    tags,
    cues: cueSet({ tags, entities, place_or_task: (place as string | null | undefined) ?? null }),
    actr: actrTimes(log),
  };
}

/** Timestamps of the ring entries whose channel feeds ACT-R (a bare float is a legacy `created` entry). */
function actrTimes(log: readonly unknown[]): Float64Array {
  const out: number[] = [];
  for (const e of log) {
    if (typeof e === 'number') {
      out.push(e);
      continue;
    }
    if (!e || typeof e !== 'object') continue;
    const ts = (e as { ts?: unknown }).ts;
    const channel = ((e as { channel?: unknown }).channel ?? 'recalled') as AccessChannel;
    if (typeof ts === 'number' && ACTR_CHANNELS.has(channel)) out.push(ts);
  }
  return Float64Array.from(out);
}
