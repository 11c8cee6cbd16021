/**
 * The memories that may conflict, kept in step with the store (the Derived pattern): every pair
 * joined by a `contradicts` edge, and every pair the value detector (value-spans.ts) finds among
 * memories that share a skeleton, with how often each memory was used (recalls and injections).
 * Built once per process (the store is read whole: a minute or more at 100k memories, reported
 * as a build the workbench and the CLI show), then patched row by row, so a page of the queue is
 * a ranking of what is already here.
 *
 * Blocking: each memory is filed under its skeleton and, for short texts, under the skeleton with
 * one word left out (one wording has a word the other lacks). Keys are hashed: a collision only
 * adds a comparison. Two memories are compared once, in the first block (by key) they share. A
 * block with more than MAX_BLOCK memories is a template ("The X service reads F at startup"), not
 * a two-sided disagreement, and yields no pairs. The build applies that rule to the whole store; a
 * memory written later is compared with the blocks as they are then, and a block that grows past
 * the bound keeps the pairs it had until the next build.
 *
 * Only statements of how things are take part in the value detector: nooa's `info`, `skill` and
 * `reflection` memories. An episode ("deployed billing on 3 May") or a todo states an event or a
 * commitment; two of them with different dates do not disagree. Any two memories joined by a
 * `contradicts` edge are listed, whatever their type.
 */
import type { DerivedIndex, LoadStep } from '../../store/derived/derived-index.js';
import type { IndexBuildEvent } from '../../store/derived/index-snapshots.js';
import type { DuplicateCandidateRow, StoreReader } from '../../store/port/port.js';
import { duplicateCandidate, liveDuplicateCandidates } from '../../store/queries/memory-views.js';
import { usageRecords } from '../../store/queries/usage.js';
import { pairKey } from '../../engine/resolutions.js';
import { NameBook, significant, skeleton, tokenize, valueConflict, valueKind, type Token, type ValueConflict, type ValueKind } from './value-spans.js';
import { edgeTargets, edgesOfType } from '../../store/queries/edge-sources.js';

export const CONFLICT_INDEX_NAME = 'review.conflicts';
/** Memories in one block beyond which it is a template and yields no pairs. */
export const MAX_BLOCK = 24;
/** Skeletons longer than this are filed under themselves only (no one-word-less variants). */
const MAX_VARIANT_WORDS = 24;
/** The memory types whose text states how things are (see above). */
export const STATEMENT_TYPES: ReadonlySet<string> = new Set(['info', 'skill', 'reflection']);
/** Rows between two progress reports (and yields) of a stepped build. */
const STEP_ROWS = 2048;
/** Memories whose use counts are read per statement. */
const USE_BATCH = 2000;

interface Entry {
  id: string;
  owner: string;
  type: string;
  created_at: number;
  content: string;
  /** Hashed block keys: the skeleton, and the skeleton less one word (sorted, distinct). */
  keys: number[];
  /** The significant tokens and their value kinds (statements only; empty otherwise). */
  tokens: Token[];
  kinds: (ValueKind | null)[];
}

export interface ValuePair {
  a: string;
  b: string;
  conflict: ValueConflict;
}

export interface EdgePair {
  /** The edge's source and target (a `contradicts` edge says src contradicts dst). */
  src: string;
  dst: string;
}

/** 32-bit FNV-1a of a string. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function blockKeys(words: readonly string[]): number[] {
  const keys = [hash(`f ${words.join(' ')}`)];
  if (words.length <= MAX_VARIANT_WORDS) {
    for (let i = 0; i < words.length; i++) if (words[i] !== '#') keys.push(hash(`d ${[...words.slice(0, i), ...words.slice(i + 1)].join(' ')}`));
  }
  return [...new Set(keys)].sort((a, b) => a - b);
}

export class ConflictIndex implements DerivedIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly blocks = new Map<number, string[]>();
  private readonly names = new NameBook();
  private readonly pairs = new Map<string, ValuePair>();
  private readonly pairsOfMemory = new Map<string, Set<string>>();
  /** contradicts edges between live memories, by `src>dst` (both directions may exist). */
  private readonly edges = new Map<string, EdgePair>();
  private readonly edgesOf = new Map<string, Set<string>>();
  /** Recalls plus injections, for the memories in a pair or an edge; a missing id is read when asked for. */
  private readonly uses = new Map<string, number>();
  /**
   * Bumped when the pairs or edges change (not on a use): what a page caches its candidates on.
   * Our own writes and other processes' are both heard through update and remove.
   */
  version = 0;

  constructor(private readonly report: (e: IndexBuildEvent) => void = () => {}) {}

  get size(): number {
    return this.entries.size;
  }

  load(store: StoreReader): void {
    const steps = this.loadSteps(store);
    while (!steps.next().done);
  }

  /** The build, a step per few thousand rows (what a step needs is read before it yields). */
  *loadSteps(store: StoreReader): Generator<LoadStep, void> {
    const started = performance.now();
    this.clear();
    const rows = [...liveDuplicateCandidates(store)];
    const contradicts = edgesOfType(store, 'contradicts');
    const memories = rows.length;
    // Names, filing, comparing, then reading use counts: four passes of about one row each.
    const total = rows.length * 4;
    let done = 0;
    const step = (): LoadStep => {
      this.report({ index: CONFLICT_INDEX_NAME, phase: 'progress', memories, done, total });
      return { done, total };
    };
    this.report({ index: CONFLICT_INDEX_NAME, phase: 'start', memories });
    // 1. Names: a capitalised word seen mid-sentence anywhere in the store.
    const tokens: Token[][] = [];
    for (const r of rows) {
      const t = tokenize(r.content);
      tokens.push(t);
      this.names.learn(t);
      if (++done % STEP_ROWS === 0) yield step();
    }
    // 2. Skeletons and blocks.
    for (let i = 0; i < rows.length; i++) {
      this.file(rows[i]!, tokens[i]!);
      tokens[i] = [];
      if (++done % STEP_ROWS === 0) yield step();
    }
    // 3. Pairs: each pair once, in the first block both are in.
    let compared = 0;
    for (const [key, ids] of this.blocks) {
      if (ids.length >= 2 && ids.length <= MAX_BLOCK) {
        for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) if (this.firstShared(ids[i]!, ids[j]!) === key) this.compare(ids[i]!, ids[j]!);
      }
      compared += ids.length;
      const at = rows.length * 2 + Math.floor((compared / Math.max(1, this.filed)) * rows.length);
      if (Math.floor(at / STEP_ROWS) > Math.floor(done / STEP_ROWS)) {
        done = at;
        yield step();
      }
    }
    done = rows.length * 3;
    for (const e of contradicts) this.addEdge(e.src, e.dst);
    // 4. Use counts of the memories in a pair or an edge.
    const involved = [...new Set([...this.pairsOfMemory.keys(), ...this.edgesOf.keys()])];
    for (let i = 0; i < involved.length; i += USE_BATCH) {
      this.readUses(store, involved.slice(i, i + USE_BATCH));
      done = rows.length * 3 + Math.floor(((i + USE_BATCH) / involved.length) * rows.length);
      yield step();
    }
    this.version++;
    this.report({ index: CONFLICT_INDEX_NAME, phase: 'done', memories, ms: Math.round(performance.now() - started) });
  }

  update(store: StoreReader, id: string): void {
    const row = duplicateCandidate(store, id);
    if (!row || row.archived) {
      this.remove(id);
      return;
    }
    // An access changes only how much the memory was used: read again when asked for.
    this.uses.delete(id);
    const before = this.entries.get(id);
    let changed = false;
    if (!before || before.content !== row.content || before.owner !== row.owner || before.type !== row.type) {
      this.unfile(id);
      const t = tokenize(row.content);
      this.names.learn(t);
      this.file(row, t);
      const candidates = new Set<string>();
      for (const k of this.entries.get(id)!.keys) {
        const ids = this.blocks.get(k)!;
        if (ids.length <= MAX_BLOCK) for (const other of ids) if (other !== id) candidates.add(other);
      }
      for (const other of candidates) this.compare(id, other);
      changed = true;
    }
    // Its outgoing contradicts edges may have changed (an edge is saved with its source); edges into
    // it count again once it is live (a restore).
    const had = this.edgesOf.get(id)?.size ?? 0;
    for (const key of [...(this.edgesOf.get(id) ?? [])]) if (this.edges.get(key)?.src === id) this.dropEdge(key);
    for (const dst of edgeTargets(store, id, 'contradicts')) this.addEdge(id, dst);
    if (!before) for (const e of store.incoming(id)) if (e.type === 'contradicts') this.addEdge(e.src, id);
    if (changed || had !== (this.edgesOf.get(id)?.size ?? 0) || !before) this.version++;
  }

  /** Only an access (ChangeEvent `usage`): the text, owner and edges stand; how much it was used is read again when asked for. */
  updateUsage(_store: StoreReader, id: string): void {
    this.uses.delete(id);
  }

  remove(id: string): void {
    if (!this.entries.has(id)) return;
    this.unfile(id);
    for (const key of [...(this.edgesOf.get(id) ?? [])]) this.dropEdge(key);
    this.uses.delete(id);
    this.version++;
  }

  /** The contradicts pairs between live memories, by pair (the first edge found when both directions exist). */
  edgePairs(): Map<string, EdgePair> {
    const out = new Map<string, EdgePair>();
    for (const e of this.edges.values()) {
      const k = pairKey(e.src, e.dst);
      if (!out.has(k)) out.set(k, e);
    }
    return out;
  }

  /** Every value pair, by pair key. */
  valuePairs(): ReadonlyMap<string, ValuePair> {
    return this.pairs;
  }

  entry(id: string): Readonly<Entry> | undefined {
    return this.entries.get(id);
  }

  /** Recalls plus injections of both sides of each pair, reading those not known yet (most are: the build read them). */
  usesOf(store: StoreReader, pairs: readonly { a: string; b: string }[]): ReadonlyMap<string, number> {
    const missing = new Set<string>();
    for (const p of pairs) {
      if (!this.uses.has(p.a)) missing.add(p.a);
      if (!this.uses.has(p.b)) missing.add(p.b);
    }
    const list = [...missing];
    for (let i = 0; i < list.length; i += USE_BATCH) this.readUses(store, list.slice(i, i + USE_BATCH));
    return this.uses;
  }

  private readUses(store: StoreReader, ids: readonly string[]): void {
    const records = usageRecords(store, ids);
    for (const id of ids) {
      const r = records.get(id);
      this.uses.set(id, r ? r.recalled_count + r.injected_count : 0);
    }
  }

  private filed = 0;

  private clear(): void {
    this.entries.clear();
    this.blocks.clear();
    this.pairs.clear();
    this.pairsOfMemory.clear();
    this.edges.clear();
    this.edgesOf.clear();
    this.uses.clear();
    this.filed = 0;
    this.version++;
  }

  /** The smallest key two memories share whose block is not a template (null: none). */
  private firstShared(a: string, b: string): number | null {
    const ka = this.entries.get(a)!.keys;
    const kb = this.entries.get(b)!.keys;
    for (let i = 0, j = 0; i < ka.length && j < kb.length; ) {
      if (ka[i]! < kb[j]!) i++;
      else if (ka[i]! > kb[j]!) j++;
      else {
        const n = this.blocks.get(ka[i]!)!.length;
        if (n <= MAX_BLOCK) return ka[i]!;
        i++;
        j++;
      }
    }
    return null;
  }

  private compare(a: string, b: string): void {
    const ea = this.entries.get(a)!;
    const eb = this.entries.get(b)!;
    const c = valueConflict(ea.tokens, eb.tokens, this.names, ea.kinds, eb.kinds);
    if (!c) return;
    const key = pairKey(a, b);
    const [x, y] = a < b ? [a, b] : [b, a];
    this.pairs.set(key, { a: x, b: y, conflict: c });
    for (const id of [a, b]) {
      const set = this.pairsOfMemory.get(id);
      if (set) set.add(key);
      else this.pairsOfMemory.set(id, new Set([key]));
    }
  }

  private file(row: DuplicateCandidateRow, all: readonly Token[]): void {
    const statement = STATEMENT_TYPES.has(row.type);
    const tokens = statement ? significant(all) : [];
    const kinds = tokens.map((t) => valueKind(t, this.names));
    const words = statement ? skeleton(tokens, this.names) : [];
    const keys = words.length ? blockKeys(words) : [];
    this.entries.set(row.id, { id: row.id, owner: row.owner ?? '', type: row.type, created_at: row.created_at, content: row.content, keys, tokens, kinds });
    for (const k of keys) {
      const list = this.blocks.get(k);
      if (list) list.push(row.id);
      else this.blocks.set(k, [row.id]);
      this.filed++;
    }
  }

  private unfile(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    for (const k of e.keys) {
      const list = this.blocks.get(k);
      if (!list) continue;
      const i = list.indexOf(id);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.blocks.delete(k);
    }
    for (const key of this.pairsOfMemory.get(id) ?? []) {
      const p = this.pairs.get(key);
      this.pairs.delete(key);
      if (p) this.pairsOfMemory.get(p.a === id ? p.b : p.a)?.delete(key);
    }
    this.pairsOfMemory.delete(id);
  }

  private addEdge(src: string, dst: string): void {
    if (src === dst || !this.entries.has(src) || !this.entries.has(dst)) return;
    const key = `${src}>${dst}`;
    this.edges.set(key, { src, dst });
    for (const id of [src, dst]) {
      const set = this.edgesOf.get(id);
      if (set) set.add(key);
      else this.edgesOf.set(id, new Set([key]));
    }
  }

  private dropEdge(key: string): void {
    const e = this.edges.get(key);
    if (!e) return;
    this.edges.delete(key);
    for (const id of [e.src, e.dst]) this.edgesOf.get(id)?.delete(key);
  }
}
