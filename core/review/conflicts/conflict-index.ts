/**
 * The memories that may conflict, kept in step with the store (the Derived pattern): every pair
 * joined by a `contradicts` edge, and every pair the value detector (value-spans.ts) finds among
 * memories that share a skeleton. Built once per process (the store is read whole: seconds at 100k
 * memories, reported as a build the workbench and the CLI show), then patched row by row, so a
 * page of the queue is a sort of what is already here.
 *
 * Blocking: each memory is filed under its skeleton and, for short texts, under the skeleton with
 * one word left out (one wording has a word the other lacks). Keys are hashed: a collision only
 * adds a comparison. A block with more than MAX_BLOCK memories is a template ("The X service
 * reads F at startup"), not a two-sided disagreement, and yields no pairs.
 */
import type { DerivedIndex, LoadStep } from '../../store/derived-index.js';
import type { IndexBuildEvent } from '../../store/index-snapshots.js';
import type { DuplicateCandidateRow, StoreReader } from '../../store/port.js';
import { pairKey } from '../../engine/resolutions.js';
import { NameBook, significant, skeleton, tokenize, valueConflict, type Token, type ValueConflict } from './value-spans.js';

export const CONFLICT_INDEX_NAME = 'review.conflicts';
/** Memories in one block beyond which it is a template and yields no pairs. */
export const MAX_BLOCK = 24;
/** Skeletons longer than this are filed under themselves only (no one-word-less variants). */
const MAX_VARIANT_WORDS = 24;
/** Rows between two progress reports and two yields of a stepped build. */
const STEP_ROWS = 2048;

interface Entry {
  id: string;
  owner: string;
  type: string;
  created_at: number;
  content: string;
  /** Hashed block keys: the skeleton, and the skeleton less one word. */
  keys: number[];
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
  return keys;
}

/**
 * A memory found by one key of another: "f" keys meet "f" keys (same skeleton) and a "d" key meets
 * an "f" key (one word more). Both are filed in one map, so a lookup reads each of a memory's keys.
 */
export class ConflictIndex implements DerivedIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly blocks = new Map<number, string[]>();
  private readonly blockPairs = new Map<number, ValuePair[]>();
  private readonly dirty = new Set<number>();
  private readonly names = new NameBook();
  /** contradicts edges between live memories, by `src>dst` (both directions may exist). */
  private readonly edges = new Map<string, EdgePair>();
  private readonly edgesOf = new Map<string, Set<string>>();
  /** Bumped on every change: a page cache is valid while it is unchanged. */
  version = 0;

  constructor(private readonly report: (e: IndexBuildEvent) => void = () => {}) {}

  get size(): number {
    return this.entries.size;
  }

  load(store: StoreReader): void {
    const steps = this.loadSteps(store);
    while (!steps.next().done);
  }

  /** The build, a step per few thousand rows (every row is read before the first yield). */
  *loadSteps(store: StoreReader): Generator<LoadStep, void> {
    const started = performance.now();
    this.clear();
    const rows = [...store.queries.liveDuplicateCandidates()];
    const contradicts = store.queries.edgesOfType('contradicts');
    const memories = rows.length;
    const total = rows.length * 3;
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
    // 3. Pairs, block by block.
    for (const key of this.blocks.keys()) this.dirty.add(key);
    const perStep = Math.max(1, Math.ceil(this.dirty.size / Math.max(1, rows.length / STEP_ROWS)));
    let n = 0;
    for (const key of [...this.dirty]) {
      this.pairsOf(key);
      if (++n % perStep === 0) {
        done = Math.min(total, rows.length * 2 + Math.round((n / Math.max(1, this.blocks.size)) * rows.length));
        yield step();
      }
    }
    for (const e of contradicts) this.addEdge(e.src, e.dst);
    this.version++;
    this.report({ index: CONFLICT_INDEX_NAME, phase: 'done', memories, ms: Math.round(performance.now() - started) });
  }

  update(store: StoreReader, id: string): void {
    const row = store.queries.duplicateCandidate(id);
    if (!row || row.archived) {
      this.remove(id);
      return;
    }
    const before = this.entries.get(id);
    if (!before || before.content !== row.content || before.owner !== row.owner) {
      this.unfile(id);
      const t = tokenize(row.content);
      this.names.learn(t);
      this.file(row, t);
    }
    // Its outgoing contradicts edges may have changed (an edge is saved with its source); edges into
    // it count again once it is live (a restore).
    for (const key of [...(this.edgesOf.get(id) ?? [])]) if (this.edges.get(key)?.src === id) this.dropEdge(key);
    for (const dst of store.queries.edgeTargets(id, 'contradicts')) this.addEdge(id, dst);
    if (!before) for (const e of store.incoming(id)) if (e.type === 'contradicts') this.addEdge(e.src, id);
    this.version++;
  }

  remove(id: string): void {
    this.unfile(id);
    for (const key of [...(this.edgesOf.get(id) ?? [])]) this.dropEdge(key);
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

  /** Every value pair, recomputing the blocks that changed (each at most MAX_BLOCK memories). */
  valuePairs(): Map<string, ValuePair> {
    for (const key of [...this.dirty]) this.pairsOf(key);
    const out = new Map<string, ValuePair>();
    for (const pairs of this.blockPairs.values()) {
      for (const p of pairs) {
        const k = pairKey(p.a, p.b);
        const had = out.get(k);
        if (!had || had.conflict.confidence < p.conflict.confidence) out.set(k, p);
      }
    }
    return out;
  }

  entry(id: string): Readonly<Entry> | undefined {
    return this.entries.get(id);
  }

  private clear(): void {
    this.entries.clear();
    this.blocks.clear();
    this.blockPairs.clear();
    this.dirty.clear();
    this.edges.clear();
    this.edgesOf.clear();
    this.version++;
  }

  private file(row: DuplicateCandidateRow, tokens: readonly Token[]): void {
    const words = skeleton(significant(tokens), this.names);
    const keys = words.length ? [...new Set(blockKeys(words))] : [];
    this.entries.set(row.id, { id: row.id, owner: row.owner ?? '', type: row.type, created_at: row.created_at, content: row.content, keys });
    for (const k of keys) {
      const list = this.blocks.get(k);
      if (list) list.push(row.id);
      else this.blocks.set(k, [row.id]);
      this.dirty.add(k);
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
      if (list.length === 0) {
        this.blocks.delete(k);
        this.blockPairs.delete(k);
        this.dirty.delete(k);
      } else this.dirty.add(k);
    }
  }

  private pairsOf(key: number): void {
    this.dirty.delete(key);
    const ids = this.blocks.get(key);
    if (!ids || ids.length < 2 || ids.length > MAX_BLOCK) {
      this.blockPairs.delete(key);
      return;
    }
    const toks = ids.map((id) => significant(tokenize(this.entries.get(id)!.content)));
    const pairs: ValuePair[] = [];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const c = valueConflict(toks[i]!, toks[j]!, this.names);
        if (c) pairs.push({ a: ids[i]!, b: ids[j]!, conflict: c });
      }
    }
    if (pairs.length) this.blockPairs.set(key, pairs);
    else this.blockPairs.delete(key);
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
