/**
 * The conflict queue: what the store disagrees with itself about, ranked by expected harm, the
 * chance the answer recall gives today is wrong × how often it is given (recalls and injections,
 * plus one: a memory never used yet can be recalled tomorrow).
 *
 * - `contradicts`: two memories joined by a `contradicts` edge (an agent or a curator flagged
 *   them). One of them is wrong and recall may return either: p_wrong = ½.
 * - `value`: two memories that state different values of one thing with no edge between them
 *   (value-spans.ts). p_wrong = ½ × the detector's confidence.
 * - `belief`: a belief dimension whose current value the belief layer itself doubts (p below
 *   DOUBT_BELOW, from the answer's signals): p_wrong = 1 − p. Beliefs have no owner, so they are
 *   listed only to callers without an owner scope.
 *
 * A pair leaves the queue once one side is superseded, forgotten, merged or archived, or once a
 * curator said both hold (resolutions.ts); a belief leaves it when its p rises above DOUBT_BELOW.
 */
import { extensionKey, type EngineReader } from '../../engine/engine.js';
import { derivedIndexKey } from '../../engine/derived-key.js';
import { pairKey, resolutionsOf, SETTLED_KEY, SUPERSEDED_KEY, type ContradictionNote } from '../../engine/resolutions.js';
import { memoryHead, type Memory } from '../../model/memory.js';
import { ownerMatches, type OwnerScope } from '../../model/owner.js';
import { beliefReaderOf, readBelief } from '../../beliefs/index.js';
import type { AnswerSignals } from '../../beliefs/answer-signals.js';
import { REJECTED_KEY } from '../../beliefs/rejected.js';
import { ConflictIndex, CONFLICT_INDEX_NAME } from './conflict-index.js';
import type { ValueSpan } from './value-spans.js';

export type ConflictKind = 'contradicts' | 'value' | 'belief';
export const CONFLICT_KINDS: readonly ConflictKind[] = ['contradicts', 'value', 'belief'];

/** A belief answer below this p is one the layer doubts. */
export const DOUBT_BELOW = 0.8;
/** How often (wall clock) the queue asks whether the belief log grew. */
const BASIS_EVERY_MS = 5_000;

export interface ConflictSide {
  id: string;
  owner: string;
  type: string;
  created_at: number;
  head: string;
  content: string;
  /** Where it came from: its source task, else null. */
  source: string | null;
  recalled: number;
  injected: number;
  /** nooa's bi-temporal validity end, when set. */
  valid_to: number | null;
}

export interface BeliefSide {
  value: string;
  p: number;
  /** The reports nearest the answer's time, newest first. */
  reports: { value: string; t: number; reliability: number | null; source: string; delta_id: number; evidence: string }[];
}

export interface ConflictItem {
  /** Stable across calls: `pair:<id>:<id>` (ids in order) or `belief:<entity>\u0001<attribute>`. */
  key: string;
  kind: ConflictKind;
  /** The two memories (pairs only). For `contradicts`, the edge's source then its target. */
  ids?: [string, string];
  sides?: [ConflictSide, ConflictSide];
  entity?: string;
  attribute?: string;
  /** p_wrong × (1 + uses). */
  harm: number;
  p_wrong: number;
  /** Recalls and injections of both memories (pairs), of the memories behind the reports (beliefs). */
  uses: number;
  /** value: the differing values. */
  spans?: ValueSpan[];
  confidence?: number;
  /** contradicts: the note given when it was flagged, if any. */
  note?: ContradictionNote | null;
  /** The words both share: the query "what recall returns today" asks. */
  query?: string;
  /** belief: the answer, its signals and the values it is weighed against. */
  belief?: { value: string | null; p: number; p_model: number; signals: AnswerSignals | null; alternatives: { value: string; p: number }[]; reports: BeliefSide['reports'] };
}

export interface ConflictQuery {
  scope: OwnerScope;
  kinds?: readonly ConflictKind[] | undefined;
  offset: number;
  limit: number;
}

export interface ConflictPage {
  items: ConflictItem[];
  /** Items in the queue (before paging), and by kind. */
  total: number;
  by_kind: Record<ConflictKind, number>;
  /** Live memories the index holds. */
  scanned: number;
  /** Pairs curators said both hold (left out). */
  settled: number;
}

const CONFLICT_INDEX = derivedIndexKey(CONFLICT_INDEX_NAME, (engine) => new ConflictIndex((e) => engine.indexSnapshots.reportBuild(e)));

/** The engine's conflict index, current with the store (built on first use). */
export function conflictIndex(engine: EngineReader): ConflictIndex {
  return engine.get(CONFLICT_INDEX).get();
}

/** Builds the index in steps, answering other calls meanwhile (the workbench polls the build's progress). */
export async function prepareConflictIndex(engine: EngineReader, pause: () => Promise<void>): Promise<void> {
  await engine.get(CONFLICT_INDEX).getReady(pause);
}

interface PairCandidate {
  key: string;
  kind: 'contradicts' | 'value';
  a: string;
  b: string;
  p_wrong: number;
  spans?: ValueSpan[];
  confidence?: number;
  query?: string;
}

/**
 * The open pairs (not settled, neither side superseded), memoised on the index's version and the
 * registries' values: a page ranks them by harm with the use counts of the moment.
 */
class Candidates {
  private key = '';
  private list: PairCandidate[] = [];

  of(engine: EngineReader, index: ConflictIndex, kinds: ReadonlySet<ConflictKind>): PairCandidate[] {
    const store = engine.store;
    const key = `${index.version}|${[...kinds].sort().join(',')}|${store.getMeta(SUPERSEDED_KEY) ?? ''}|${store.getMeta(SETTLED_KEY) ?? ''}`;
    if (key !== this.key) {
      this.list = pairCandidates(engine, index, kinds);
      this.key = key;
    }
    return this.list;
  }
}

const CANDIDATES = extensionKey('review.conflicts.candidates', () => new Candidates());

function pairCandidates(engine: EngineReader, index: ConflictIndex, kinds: ReadonlySet<ConflictKind>): PairCandidate[] {
  const resolutions = resolutionsOf(engine);
  const settled = resolutions.settled.read(engine.store);
  const superseded = resolutions.superseded.read(engine.store);
  const out = new Map<string, PairCandidate>();
  const open = (a: string, b: string, key: string) => !settled.has(key) && !superseded.has(a) && !superseded.has(b);
  if (kinds.has('contradicts')) {
    for (const [key, e] of index.edgePairs()) {
      if (open(e.src, e.dst, key)) out.set(key, { key, kind: 'contradicts', a: e.src, b: e.dst, p_wrong: 0.5 });
    }
  }
  if (kinds.has('value')) {
    for (const [key, p] of index.valuePairs()) {
      if (out.has(key) || !open(p.a, p.b, key)) continue;
      const [a, b] = p.a < p.b ? [p.a, p.b] : [p.b, p.a];
      out.set(key, { key, kind: 'value', a, b, p_wrong: 0.5 * p.conflict.confidence, spans: p.conflict.spans, confidence: p.conflict.confidence, query: p.conflict.shared });
    }
  }
  return [...out.values()];
}

function side(m: Memory): ConflictSide {
  return {
    id: m.id,
    owner: m.owner,
    type: m.type,
    created_at: m.created_at,
    head: memoryHead(m),
    content: m.content,
    source: m.source_task_ref,
    recalled: m.recalled_count,
    injected: m.injected_count,
    valid_to: m.valid_to,
  };
}

/** Belief dimensions the layer doubts, read at now (hindsight: what is now believed true), cached on the log's state. */
class BeliefDoubts {
  private key = '';
  private items: ConflictItem[] = [];
  /** When the log's basis was last asked for (a count over the delta log: a tenth of a second at 100k deltas). */
  private basisAt = -Infinity;
  private basis = '';

  of(engine: EngineReader): ConflictItem[] {
    const model = beliefReaderOf(engine);
    if (!model.tables.exists()) return [];
    // Read at now; beliefs decay slowly, so the list is kept for a minute while the log is unchanged.
    // The log's basis is asked for at most every few seconds (a page must not count the log); the
    // rejected observations, which a curator's resolution changes, are read every time.
    const now = engine.now();
    if (performance.now() - this.basisAt > BASIS_EVERY_MS) {
      this.basis = model.tables.basis();
      this.basisAt = performance.now();
    }
    const key = `${this.basis}|${engine.store.getMeta(REJECTED_KEY) ?? ''}|${Math.floor(now / 60)}`;
    if (key === this.key) return this.items;
    const out: ConflictItem[] = [];
    for (const d of model.tables.allDimensions()) {
      const view = readBelief(model, d.entity, d.attribute, now, 'hindsight');
      if (view.value === null || view.p >= DOUBT_BELOW) continue;
      const deltas = model.tables.deltasOf(view.entity, d.attribute);
      const memoryIds = [...new Set(deltas.flatMap((x) => (x.memory_id ? [x.memory_id] : [])))];
      const used = memoryIds.length ? engine.store.getMany(memoryIds) : new Map<string, Memory>();
      let uses = 0;
      for (const m of used.values()) uses += m.recalled_count + m.injected_count;
      const p_wrong = 1 - view.p;
      const reports = deltas
        .slice(-6)
        .reverse()
        .map((x) => ({ value: x.value, t: x.t, reliability: x.reliability, source: x.source, delta_id: x.id, evidence: x.evidence }));
      out.push({
        key: `belief:${view.entity}\u0001${d.attribute}`,
        kind: 'belief',
        entity: view.entity,
        attribute: d.attribute,
        harm: p_wrong * (1 + uses),
        p_wrong,
        uses,
        belief: {
          value: view.value,
          p: view.p,
          p_model: view.p_model,
          signals: view.signals,
          alternatives: view.distribution.filter((v) => v.value !== view.value && v.value !== '<other>').slice(0, 4),
          reports,
        },
      });
    }
    this.key = key;
    this.items = out;
    return out;
  }
}

const DOUBTS = extensionKey('review.conflicts.beliefs', () => new BeliefDoubts());

const byHarm = (a: { harm: number; key: string }, b: { harm: number; key: string }) => b.harm - a.harm || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The first `n` items by harm, in order: a full sort of a 60k-item queue took longer than a page
 * should, so the first pages keep a bounded list of the best seen (n log n of the page, not of the queue).
 */
function topOf<T extends { harm: number; key: string }>(items: readonly T[], n: number): T[] {
  if (n >= items.length / 4) return [...items].sort(byHarm).slice(0, n);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === n && byHarm(item, best[n - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byHarm(best[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > n) best.pop();
  }
  return best;
}

/** One page of the queue, most harmful first. */
export function conflictPage(engine: EngineReader, q: ConflictQuery): ConflictPage {
  return engine.store.readFresh(() => {
    const index = conflictIndex(engine);
    const kinds = new Set(q.kinds?.length ? q.kinds : CONFLICT_KINDS);
    const entryOwner = (id: string) => index.entry(id)?.owner ?? '';
    const all = engine.get(CANDIDATES).of(engine, index, kinds);
    const pairs = q.scope === null ? all : all.filter((c) => ownerMatches(entryOwner(c.a), q.scope) && ownerMatches(entryOwner(c.b), q.scope));
    const uses = index.usesOf(engine.store, pairs);
    const ranked: ({ harm: number; key: string } & ({ pair: PairCandidate; uses: number } | { belief: ConflictItem }))[] = pairs.map((pair) => {
      const n = (uses.get(pair.a) ?? 0) + (uses.get(pair.b) ?? 0);
      return { key: pair.key, harm: pair.p_wrong * (1 + n), pair, uses: n };
    });
    const beliefs = kinds.has('belief') && q.scope === null ? engine.get(DOUBTS).of(engine) : [];
    for (const b of beliefs) ranked.push({ key: b.key, harm: b.harm, belief: b });
    const page = topOf(ranked, q.offset + q.limit).slice(q.offset);
    const ids = page.flatMap((r) => ('pair' in r ? [r.pair.a, r.pair.b] : []));
    const memories = ids.length ? engine.store.getMany(ids) : new Map<string, Memory>();
    const notes = resolutionsOf(engine).notes.read(engine.store);
    const items: ConflictItem[] = [];
    for (const r of page) {
      if ('belief' in r) {
        items.push(r.belief);
        continue;
      }
      const { pair } = r;
      const a = memories.get(pair.a);
      const b = memories.get(pair.b);
      if (!a || !b) continue;
      items.push({
        key: `pair:${pairKey(pair.a, pair.b)}`,
        kind: pair.kind,
        ids: [pair.a, pair.b],
        sides: [side(a), side(b)],
        harm: r.harm,
        p_wrong: pair.p_wrong,
        uses: r.uses,
        ...(pair.spans ? { spans: pair.spans, confidence: pair.confidence! } : {}),
        ...(pair.kind === 'contradicts' ? { note: notes.get(pair.key) ?? null } : {}),
        query: pair.query ?? sharedWords(a.content, b.content),
      });
    }
    const by_kind: Record<ConflictKind, number> = { contradicts: 0, value: 0, belief: 0 };
    for (const r of ranked) by_kind['belief' in r ? 'belief' : r.pair.kind]++;
    return { items, total: ranked.length, by_kind, scanned: index.size, settled: resolutionsOf(engine).settled.read(engine.store).size };
  });
}

/** The words two texts share, in the first one's order (at most 32): a query both should answer. */
export function sharedWords(a: string, b: string): string {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*/gu) ?? [];
  const other = new Set(words(b));
  const out: string[] = [];
  for (const w of words(a)) if (other.has(w) && !out.includes(w)) out.push(w);
  return (out.length ? out : words(a)).slice(0, 32).join(' ');
}
