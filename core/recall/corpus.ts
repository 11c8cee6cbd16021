/**
 * The recall corpus: what scoring needs from every live memory, held in memory in rowid order
 * (= nooa's tie order) and kept in step with the store through the Derived pattern. Reading and
 * decoding ~100 candidate rows per query costs several milliseconds at 100k memories (the rows
 * carry 64-entry access rings); here a candidate's terms are a few array reads.
 *
 * Per slot: id, rowid, owner, content, type, importance, title, tags, cue set and the
 * timestamps of the ring entries that feed ACT-R. Liveness and owner scopes are bitsets, so the
 * keyword leg works word by word. The substring indexes (one per field set) are built lazily
 * over the same slots; slots changed after a build are scanned directly until enough have
 * changed to make a rebuild worthwhile.
 */
import { ACTR_CHANNELS } from '../model/enums.js';
import { cueSet } from '../model/memory.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import type { PersistableIndex } from '../store/derived/derived.js';
import { rowCounter, type LoadProgress } from '../store/derived/derived-index.js';
import { SnapshotMismatch, type PartSource, type SnapshotParts } from '../store/derived/snapshot-parts.js';
import { decodeCorpus, encodeCorpus, type CorpusSlots, type StoredCorpus, type StoredSlotData } from './corpus-snapshot.js';
import type { SlotData } from './slot-data.js';
import type { SourceRow, StoreReader } from '../store/port/port.js';
import { scanScoringFields, type ScoringFields } from './data-scan.js';
import type { SparseField } from './profile.js';
import { setBit } from './substring-index.js';
import { TextsInMemory, type CorpusTexts } from './stored-contents.js';
import { KeywordView, substringIndexPolicy } from './keyword-view.js';
import { asciiLower } from './tokens.js';
import { countMemories } from '../store/queries/memory-lookups.js';


export type { SlotData } from './slot-data.js';

/**
 * How many slots a row arriving out of rowid order may move up (insertInOrder). Moving them is
 * a few array splices; beyond this a reload is as cheap and keeps the dirty sets small.
 */
const MAX_MOVED_SLOTS = 4096;


export class RecallCorpus implements PersistableIndex {
  /** Text, owner and scoring fields come from the row alone. */
  readonly readsNoEdges = true;
  readonly snapshotFormat = 'corpus/2';
  private ids: string[] = [];
  private rowids: number[] = [];
  private owners: string[] = [];
  private contents: string[] = [];
  /**
   * A snapshot read back and not changed since: its columns answer for the four arrays above and
   * `slotOf` (which the first change makes from them: mutable()), and the keyword leg searches its
   * texts' bytes. A one-shot command never makes 100k ids, owners and texts into strings.
   */
  private restored: StoredCorpus | null = null;
  /** Per slot, once built or read; a slot of a snapshot read back is read from `stored` until then. */
  private data: (SlotData | undefined)[] = [];
  private stored: StoredSlotData | null = null;
  /** Bit s = slot s is live. */
  private aliveBits = new Uint32Array(0);
  private readonly slotOf = new Map<string, number>();
  private views = new Map<string, KeywordView>();
  /** Live slots inside an owner scope, per scope (kept current on every change). */
  private scopes = new Map<string, Uint32Array>();
  private lowered: (string | null)[] = [];
  private store: StoreReader | null = null;
  private needsReload = false;

  get size(): number {
    return this.restored ? this.restored.ids.length : this.ids.length;
  }

  idOf(slot: number): string {
    return this.restored ? this.restored.ids.get(slot) : this.ids[slot]!;
  }

  rowidOf(slot: number): number {
    return this.restored ? this.restored.rowids[slot]! : this.rowids[slot]!;
  }

  ownerOf(slot: number): string {
    return this.restored ? this.restored.owners.shared(slot) : this.owners[slot]!;
  }

  contentOf(slot: number): string {
    return this.restored ? this.withTexts((texts) => texts.get(slot)) : this.contents[slot]!;
  }

  /** Every slot's id, live or not (tests and checks; a scan of the whole corpus). */
  allIds(): string[] {
    return this.restored ? this.restored.ids.toArray() : [...this.ids];
  }

  /** Every slot's rowid, in slot order (tests and checks). */
  allRowids(): number[] {
    return this.restored ? Array.from(this.restored.rowids) : [...this.rowids];
  }

  /** 32-bit words covering every slot. */
  get words(): number {
    return this.aliveBits.length;
  }

  load(store: StoreReader, progress?: LoadProgress): void {
    this.reset(store);
    const rows = rowCounter(countMemories(store), progress);
    for (const row of store.queries.liveSourceRows()) {
      this.append(store, row);
      rows.tick();
    }
    this.markAllAlive();
    rows.end();
  }

  snapshotConditions(): string {
    // The scoring fields come from the rows alone; the format version covers how they are read.
    return '';
  }

  /** The live slots only, in slot order: what a fresh load would hold. */
  saveSnapshot(): SnapshotParts | null {
    const live: CorpusSlots = { ids: [], rowids: [], owners: [], contents: [], data: [] };
    for (let s = 0; s < this.size; s++) {
      if (!this.isAlive(s)) continue;
      live.ids.push(this.idOf(s));
      live.rowids.push(this.rowidOf(s));
      live.owners.push(this.ownerOf(s));
      live.contents.push(this.contentOf(s));
      live.data.push(this.dataOf(s));
    }
    return encodeCorpus(live);
  }

  restoreSnapshot(parts: PartSource, store: StoreReader): void {
    const restored = decodeCorpus(parts);
    this.reset(store);
    this.restored = restored;
    this.data = new Array<SlotData | undefined>(restored.ids.length);
    this.stored = restored.data;
    this.markAllAlive();
  }

  /** Makes the arrays a change edits from a snapshot read back (the cost reading it used to pay up front). */
  private mutable(): void {
    const r = this.restored;
    if (!r) return;
    const contents = this.withTexts((texts) => texts.toArray());
    this.restored = null;
    this.ids = r.ids.toArray();
    this.rowids = Array.from(r.rowids);
    this.owners = r.owners.toArray();
    this.contents = contents;
    this.lowered = new Array<string | null>(this.ids.length).fill(null);
    this.ids.forEach((id, s) => this.slotOf.set(id, s));
  }

  private reset(store: StoreReader): void {
    this.store = store;
    this.ids = [];
    this.rowids = [];
    this.owners = [];
    this.contents = [];
    this.data = [];
    this.stored = null;
    this.restored = null;
    this.lowered = [];
    this.slotOf.clear();
    this.views = new Map();
    this.scopes = new Map();
    this.needsReload = false;
  }

  private markAllAlive(): void {
    this.aliveBits = new Uint32Array(Math.ceil(Math.max(1024, this.size * 1.25) / 32));
    for (let s = 0; s < this.size; s++) setBit(this.aliveBits, s);
  }

  update(store: StoreReader, id: string): void {
    this.store = store;
    this.mutable();
    const row = store.queries.sourceRow(id);
    const slot = this.slotOf.get(id);
    if (!row || row.archived) {
      if (slot !== undefined) this.setAlive(slot, false);
      return;
    }
    if (slot !== undefined && this.rowids[slot] === row.rowid) {
      const before = this.textParts(slot);
      const ownerBefore = this.owners[slot];
      this.fillSlot(store, slot, row);
      if (before !== this.textParts(slot)) this.markDirty(slot);
      if (ownerBefore !== row.owner) this.setAlive(slot, false); // drop from every scope …
      this.setAlive(slot, true); // … and add back where the new owner belongs
      return;
    }
    if (slot !== undefined) this.setAlive(slot, false);
    const lastRowid = this.rowids.length ? this.rowids[this.rowids.length - 1]! : -Infinity;
    // Slot order must stay rowid order. A row behind the last slot is put in its place when few
    // slots follow it: on PostgreSQL rowids are handed out at insert and transactions commit in
    // any order, so with several writers most new rows arrive a few places behind (a full reload
    // for each, as before, cost a recall seconds at 100k). Further back (a restore of an old
    // row), the corpus is reloaded.
    if (row.rowid <= lastRowid) {
      if (!this.insertInOrder(store, row)) this.needsReload = true;
      return;
    }
    const s = this.append(store, row);
    if (s >= this.aliveBits.length * 32) this.grow();
    this.setAlive(s, true);
  }

  /**
   * An access changes only a row's usage (its counters and access ring): its slot's scoring fields
   * are read again, in place. update() first turns a snapshot read back into arrays (mutable()),
   * which at a million memories took about 1.3 s, and left most of the garbage, of the first recall
   * after opening a store that agents had recalled from since its last snapshot. Anything an access
   * alone does not do (a new, moved, archived or re-owned row, other text) goes through update().
   */
  updateUsage(store: StoreReader, id: string, written?: SourceRow): void {
    const slot = this.needsReload ? undefined : this.slotOfId(id);
    const row = slot === undefined ? undefined : (written ?? store.queries.sourceRow(id));
    // The slot's owner decoded alone: ownerOf() decodes every owner of a snapshot read back the first time (a million at 1M).
    const owner = (s: number) => (this.restored ? this.restored.owners.get(s) : this.owners[s]!);
    const same = slot !== undefined && row && !row.archived && this.isAlive(slot) && row.rowid === this.rowidOf(slot) && row.owner === owner(slot) && row.content === this.contentOf(slot);
    if (!same) return this.update(store, id);
    const before = this.dataOf(slot);
    const after = slotData(store, row);
    if (after.title !== before.title || after.tags.join('\u0001') !== before.tags.join('\u0001')) return this.update(store, id);
    this.store = store;
    this.data[slot] = after;
  }

  /**
   * Puts a row at its rowid's place among the slots, moving the ones after it up by one; false
   * (nothing changed) when more than MAX_MOVED_SLOTS would move or its rowid is taken.
   */
  private insertInOrder(store: StoreReader, row: SourceRow): boolean {
    const at = firstSlotAbove(this.rowids, row.rowid);
    const end = this.ids.length;
    if (end - at > MAX_MOVED_SLOTS || (at > 0 && this.rowids[at - 1] === row.rowid)) return false;
    // A snapshot read back is read by slot number: the moving slots take their fields along first.
    for (let s = at; s < end; s++) this.data[s] = this.dataOf(s);
    this.ids.splice(at, 0, row.id);
    this.rowids.splice(at, 0, row.rowid);
    this.owners.splice(at, 0, row.owner);
    this.contents.splice(at, 0, row.content);
    this.lowered.splice(at, 0, null);
    this.data.splice(at, 0, undefined);
    // A dead slot keeps its id; the id's entry moves with a slot only if it pointed there.
    for (let s = end; s > at; s--) if (this.slotOf.get(this.ids[s]!) === s - 1) this.slotOf.set(this.ids[s]!, s);
    this.slotOf.set(row.id, at);
    if (end + 1 > this.aliveBits.length * 32) this.grow();
    shiftBitsUp(this.aliveBits, at, end);
    for (const bits of this.scopes.values()) shiftBitsUp(bits, at, end);
    for (const view of this.views.values()) {
      if (view.texts.length > at) view.texts.splice(at, 0, undefined);
      // The index's postings name slots by number: from `at` on they name the wrong ones, so
      // those slots are checked by their text (as edited ones are) until the next rebuild.
      if (view.index) for (let s = at; s < view.index.size; s++) view.dirty.add(s);
      // A build half done has read texts by the old slot numbers: it starts again.
      view.build = null;
      view.buildMs = 0;
      view.cache.clear();
    }
    this.fillSlot(store, at, row);
    this.setAlive(at, true);
    return true;
  }

  remove(id: string): void {
    const slot = this.slotOfId(id);
    if (slot !== undefined) this.setAlive(slot, false);
  }

  /** Rebuilds when an update could not keep slot order (call before every use). */
  ensureFresh(): void {
    if (this.needsReload && this.store) this.load(this.store);
  }

  /** What scoring reads of a slot. */
  dataOf(slot: number): SlotData {
    let d = this.data[slot];
    if (!d) this.data[slot] = d = this.storedData(slot);
    return d;
  }

  /**
   * A slot's fields from the snapshot read back; when what that reads turns out damaged (read only
   * now), from the store's row instead, for this slot and every one not read yet.
   */
  private storedData(slot: number): SlotData {
    if (this.stored) {
      try {
        return this.stored.get(slot);
      } catch (err) {
        if (!(err instanceof SnapshotMismatch)) throw err;
        this.stored = null;
      }
    }
    const row = this.store!.queries.sourceRow(this.idOf(slot));
    return row ? slotData(this.store!, row) : EMPTY_SLOT_DATA();
  }

  isAlive(slot: number): boolean {
    return ((this.aliveBits[slot >>> 5]! >>> (slot & 31)) & 1) === 1;
  }

  hasLive(): boolean {
    return this.aliveBits.some((w) => w !== 0);
  }

  slot(id: string): number | undefined {
    const s = this.slotOfId(id);
    return s !== undefined && this.isAlive(s) ? s : undefined;
  }

  /** The slot an id was last put in, live or not. */
  private slotOfId(id: string): number | undefined {
    if (!this.restored) return this.slotOf.get(id);
    const s = this.restored.ids.indexOf(id);
    return s < 0 ? undefined : s;
  }

  /** Live slots visible to a scope under the owner rule (ownerMatches); do not modify the result. */
  scopeBits(scope: OwnerScope): Uint32Array {
    if (scope === null) return this.aliveBits;
    let bits = this.scopes.get(scope);
    if (!bits) {
      bits = new Uint32Array(this.aliveBits.length);
      const seen = new Map<string, boolean>();
      for (let s = 0; s < this.size; s++) {
        if (!this.isAlive(s)) continue;
        const owner = this.ownerOf(s);
        let v = seen.get(owner);
        if (v === undefined) seen.set(owner, (v = ownerMatches(owner, scope)));
        if (v) setBit(bits, s);
      }
      this.scopes.set(scope, bits);
    }
    return bits;
  }

  /** How far the substring index of a field set is: none yet, built, or built with the next being built. */
  substringIndexState(fields: readonly SparseField[]): 'none' | 'built' | 'rebuilding' {
    const view = this.views.get(fields.join('+'));
    if (!view?.index) return 'none';
    return view.build ? 'rebuilding' : 'built';
  }

  /** Sets in `out` (≥ `words` words) the bit of every live slot whose chosen fields contain `token`. */
  matchBits(fields: readonly SparseField[], token: string, out: Uint32Array): void {
    const view = this.view(fields);
    const index = view.index;
    if (!index) {
      view.scans++;
      if (this.restored) {
        this.restoredMatches(view.fields, token, out);
        return;
      }
      for (let s = 0; s < this.ids.length; s++) if (this.isAlive(s) && this.text(view, s).includes(token)) setBit(out, s);
      return;
    }
    const cached = view.indexMatches(token);
    for (let w = 0; w < cached.length; w++) out[w] = out[w]! | cached[w]!;
    for (const s of view.dirty) out[s >>> 5] = out[s >>> 5]! & ~(1 << (s & 31));
    for (let w = 0; w < this.aliveBits.length; w++) out[w] = out[w]! & this.aliveBits[w]!;
    for (const s of view.dirty) if (this.isAlive(s) && this.text(view, s).includes(token)) setBit(out, s);
    for (let s = index.size; s < this.size; s++) if (this.isAlive(s) && this.text(view, s).includes(token)) setBit(out, s);
  }

  /**
   * matchBits on a snapshot read back and unchanged, without its substring index: each field's
   * bytes searched (the fields are joined by newlines, which no token spans, so a match in the
   * joined text is a match in one field), then only live slots kept.
   */
  private restoredMatches(fields: readonly SparseField[], token: string, out: Uint32Array): void {
    const found = new Uint32Array(out.length);
    for (const f of fields) {
      // Each field into a bitset of its own, so a read that fails half way (damaged bytes) leaves no bit behind.
      const mine = new Uint32Array(found.length);
      if (f === 'content') this.withTexts((texts) => texts.setContaining(token, mine));
      else if (f === 'title' || f === 'tags') this.fieldMatches(f, token, mine);
      for (let w = 0; w < found.length; w++) found[w] = found[w]! | mine[w]!;
    }
    for (let w = 0; w < out.length; w++) out[w] = out[w]! | (found[w]! & this.aliveBits[w]!);
  }

  /**
   * Title or tag matches of a snapshot read back, from its word lists; when what they read turns
   * out damaged only now, from every slot's fields, read from the store from then on (storedData).
   */
  private fieldMatches(field: 'title' | 'tags', token: string, out: Uint32Array): void {
    const stored = this.stored;
    if (stored) {
      try {
        if (field === 'title') stored.titleMatches(token, out);
        else stored.tagMatches(token, out);
        return;
      } catch (err) {
        if (!(err instanceof SnapshotMismatch)) throw err;
        this.stored = null;
        out.fill(0);
      }
    }
    for (let s = 0; s < this.size; s++) {
      const d = this.dataOf(s);
      if (field === 'title' ? d.title !== null && asciiLower(d.title).includes(token) : d.tags.some((t) => asciiLower(t).includes(token))) setBit(out, s);
    }
  }

  /**
   * A read of the restored snapshot's texts, which are read lazily (stored-contents.ts): when their
   * bytes turn out damaged only now, every text is read from the store instead, and the read is
   * made again on those.
   */
  private withTexts<R>(read: (texts: CorpusTexts) => R): R {
    const r = this.restored!;
    try {
      return read(r.contents);
    } catch (err) {
      if (!(err instanceof SnapshotMismatch)) throw err;
      const store = this.store!;
      r.contents = new TextsInMemory(Array.from({ length: r.ids.length }, (_, s) => store.queries.sourceRow(r.ids.get(s))?.content ?? ''));
      return read(r.contents);
    }
  }

  /** The ASCII-lower-cased text the keyword leg reads for a slot under a field set. */
  text(view: KeywordView, slot: number): string {
    if (view.fields.length === 1 && view.fields[0] === 'content') {
      if (this.lowered.length < this.size) this.lowered = new Array<string | null>(this.size).fill(null); // a snapshot read back
      return (this.lowered[slot] ??= asciiLower(this.contentOf(slot)));
    }
    return (view.texts[slot] ??= this.joinedText(view.fields, slot));
  }

  private joinedText(fields: readonly SparseField[], slot: number): string {
    // Every slot's text is read to build the substring index: from the stored columns, without making its SlotData.
    // (Once the snapshot's fields turned out damaged, from the store's row: dataOf.)
    const d = this.data[slot] ?? (this.stored ? undefined : this.dataOf(slot));
    const parts: string[] = [];
    for (const f of fields) {
      if (f === 'content') parts.push(this.contentOf(slot));
      else if (f === 'title') {
        const title = d ? d.title : this.stored!.title(slot);
        if (title) parts.push(title);
      } else if (f === 'tags') {
        const tags = d ? d.tags : this.stored!.tagsOf(slot);
        if (tags.length) parts.push(tags.join('\n'));
      }
    }
    // Newlines cannot be part of a [a-z0-9] token, so no match spans two fields.
    return asciiLower(parts.join('\n'));
  }

  private view(fields: readonly SparseField[]): KeywordView {
    const key = fields.join('+');
    let view = this.views.get(key);
    if (!view) this.views.set(key, (view = new KeywordView(fields)));
    if (!view.index && view.scans < substringIndexPolicy.scansBefore) return view;
    const textOf = (slot: number) => this.text(view, slot);
    if (!view.index) view.buildAtOnce(this.size, textOf);
    else if (view.build || view.rebuildDue(this.size)) view.buildSlice(this.size, textOf);
    return view;
  }

  private setAlive(slot: number, alive: boolean): void {
    const w = slot >>> 5;
    const bit = 1 << (slot & 31);
    const set = (bits: Uint32Array, on: boolean) => (bits[w] = on ? bits[w]! | bit : bits[w]! & ~bit);
    set(this.aliveBits, alive);
    for (const [scope, bits] of this.scopes) set(bits, alive && ownerMatches(this.ownerOf(slot), scope));
  }

  private grow(): void {
    const grow = (bits: Uint32Array) => {
      const g = new Uint32Array(bits.length * 2);
      g.set(bits);
      return g;
    };
    this.aliveBits = grow(this.aliveBits);
    for (const [scope, bits] of this.scopes) this.scopes.set(scope, grow(bits));
  }

  private markDirty(slot: number): void {
    this.lowered[slot] = null;
    for (const v of this.views.values()) v.texts[slot] = undefined;
    for (const v of this.views.values()) {
      if (v.index && slot < v.index.size) v.dirty.add(slot);
      if (v.build && slot < v.build.next.slotsRead) v.build.changed.add(slot);
    }
  }

  private textParts(slot: number): string {
    const d = this.dataOf(slot);
    return `${this.contentOf(slot)}\u0000${d.title ?? ''}\u0000${d.tags.join('\u0001')}`;
  }

  private append(store: StoreReader, row: SourceRow): number {
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

  private fillSlot(store: StoreReader, slot: number, row: SourceRow): void {
    this.owners[slot] = row.owner;
    this.contents[slot] = row.content;
    this.lowered[slot] = null;
    this.data[slot] = slotData(store, row);
  }
}

/** What scoring reads of a row it cannot read. */
const EMPTY_SLOT_DATA = (): SlotData => ({ type: 'info', importance: 5, title: null, tags: [], cues: new Set(), actr: new Float64Array(0) });

function toSlotData(f: ScoringFields): SlotData {
  return { type: f.type, importance: f.importance, title: f.title, tags: f.tags, cues: cueSet(f), actr: f.actr };
}

/**
 * The scoring fields of a row: the fast scan of nooa's JSON when its shape allows, otherwise the
 * store's lenient decoder (legacy rings, damaged JSON), so both paths give the same answer.
 */
function slotData(store: StoreReader, row: SourceRow): SlotData {
  const fast = scanScoringFields(row.data);
  if (fast) return toSlotData(fast);
  const m = store.get(row.id);
  if (!m) return EMPTY_SLOT_DATA();
  const actr = m.access_log.filter((e) => ACTR_CHANNELS.has(e.channel)).map((e) => e.ts);
  return { type: m.type, importance: m.importance, title: m.title, tags: m.tags, cues: cueSet(m), actr: Float64Array.from(actr) };
}

/** The first index whose rowid is above `rowid` (rowids ascend). */
function firstSlotAbove(rowids: readonly number[], rowid: number): number {
  let lo = 0;
  let hi = rowids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rowids[mid]! <= rowid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Moves bits [from, end) of a bitset up by one, leaving bit `from` clear (the bitset holds bit `end`). */
function shiftBitsUp(bits: Uint32Array, from: number, end: number): void {
  for (let s = end; s > from; s--) {
    const prev = (bits[(s - 1) >>> 5]! >>> ((s - 1) & 31)) & 1;
    if (prev) bits[s >>> 5] = bits[s >>> 5]! | (1 << (s & 31));
    else bits[s >>> 5] = bits[s >>> 5]! & ~(1 << (s & 31));
  }
  bits[from >>> 5] = bits[from >>> 5]! & ~(1 << (from & 31));
}
