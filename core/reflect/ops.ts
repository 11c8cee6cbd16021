/**
 * The four deterministic ops of nooa v0.0.9's reflection, as planners: each reads the working view,
 * proposes typed operations, and applies them to the view (never to the store), so the next op
 * sees the state the reference's sequential pass would have produced.
 */
import { pruneDecision, PROTECTED_IMPORTANCE, type ForgetPolicy } from '../model/forget-policy.js';
import { foldDuplicateScalars, type Memory } from '../model/memory.js';
import { compareMergeSurvivor } from '../model/merge-order.js';
import { baseLevelActivation, sigmoid } from '../model/activation.js';
import type { ReflectionPolicy } from './policy.js';
import type { LinkOp, MergeOp, PlanOp, PruneOp, RescoreOp } from './types.js';
import { notMerged, type NotMerged } from './not-merged.js';
import { addViewEdge, foldFields, type ViewMemory, type WorkingView } from './view.js';

export interface OpContext {
  view: WorkingView;
  policy: ReflectionPolicy;
  forget: ForgetPolicy;
  now: number;
  shouldStop: () => boolean;
  onItem?: (done: number, total: number) => void;
}

export interface OpOutcome<T> {
  ops: T[];
  stopped: boolean;
  notes: Record<string, number | string>;
}

/**
 * Python's round(x, 4): the exact binary value rounded to 4 decimals, ties to even. toFixed already
 * rounds the exact value (ties away from zero); an exact tie shows as "5" then zeros in the first 30
 * digits (a double is never within 1e-30 of a non-dyadic tie without being it).
 */
export function round4(x: number): number {
  const a = Math.abs(x);
  const scaledFast = a * 1e4;
  const frac = scaledFast - Math.floor(scaledFast);
  // Far from a half-way point the plain rounding is exact; only near-ties need the decimal expansion.
  if (Math.abs(frac - 0.5) > 1e-6) {
    const r = Number(a.toFixed(4));
    return x < 0 ? -r : r;
  }
  const exact = a.toFixed(30);
  const tail = exact.slice(exact.indexOf('.') + 5);
  let scaled = Number(a.toFixed(4).replace('.', ''));
  if (/^50*$/.test(tail) && scaled % 2 === 1) scaled -= 1;
  const r = scaled / 1e4;
  return x < 0 ? -r : r;
}

/** Python's math.isclose(a, b, abs_tol=abs) with the default rel_tol 1e-9. */
export function isClose(a: number, b: number, abs = 1e-6): boolean {
  return Math.abs(a - b) <= Math.max(1e-9 * Math.max(Math.abs(a), Math.abs(b)), abs);
}

// The same survivor rule as a manual merge (core/model/merge-order.ts).
const compareAnchor = (a: ViewMemory, b: ViewMemory): number => compareMergeSurvivor(a, b);

/** merge_duplicates: fold same-type near-duplicates (cos ≥ merge_threshold) into the older anchor. */
export function planMerge(ctx: OpContext, nextId: () => string): OpOutcome<MergeOp> {
  const { view, policy } = ctx;
  const anchors = view.live().sort(compareAnchor);
  const merged = new Set<string>();
  const ops: MergeOp[] = [];
  const k = 6;
  let windows = 0;
  let done = 0;
  for (const anchor of anchors) {
    if (ctx.shouldStop()) return { ops, stopped: true, notes: { anchors: anchors.length, windows } };
    ctx.onItem?.(++done, anchors.length);
    if (merged.has(anchor.id) || anchor.slot < 0) continue;
    windows++;
    for (const hit of view.window(anchor, k)) {
      if (hit.id === anchor.id || merged.has(hit.id)) continue;
      const dup = view.byId.get(hit.id)!;
      if (hit.cos < policy.merge_threshold || dup.type !== anchor.type) continue;
      const beforeAnchor = foldFields(anchor);
      const beforeDup = foldFields(dup);
      foldDuplicateScalars(anchor, dup);
      const moved = [];
      for (const e of dup.edges) {
        if (e.target_id === anchor.id) continue;
        if (addViewEdge(anchor, e.target_id, e.type, e.weight)) moved.push({ ...e });
      }
      addViewEdge(anchor, dup.id, 'refines', 1.0);
      const id = nextId();
      merged.add(dup.id);
      view.archive(dup.id, id);
      ops.push({
        id,
        op: 'merge',
        anchor: anchor.id,
        dup: dup.id,
        type: dup.type,
        cos: hit.cos,
        threshold: policy.merge_threshold,
        reason: `same type ${dup.type}, cos ${hit.cos.toFixed(4)} ≥ ${policy.merge_threshold}; the older memory absorbs the newer`,
        window: hit.window,
        before: { anchor: beforeAnchor, dup: beforeDup },
        after: { anchor: foldFields(anchor) },
        edges_moved: moved,
        refines: { target_id: dup.id, type: 'refines', weight: 1.0 },
      });
    }
  }
  return { ops, stopped: false, notes: { anchors: anchors.length, windows } };
}

/** form_edges: directed `related` edges to knn neighbours with edge_threshold ≤ cos < merge_threshold. */
export function planLinks(ctx: OpContext, nextId: () => string, dependsOn: (id: string) => string[]): OpOutcome<LinkOp> {
  const { view, policy } = ctx;
  const ops: LinkOp[] = [];
  const live = view.live();
  let done = 0;
  for (const m of live) {
    if (ctx.shouldStop()) return { ops, stopped: true, notes: { memories: live.length } };
    ctx.onItem?.(++done, live.length);
    if (m.slot < 0) continue;
    const existing = new Set(m.edges.map((e) => e.target_id));
    let added = 0;
    for (const hit of view.window(m, policy.max_edges_per_node + 1)) {
      if (added >= policy.max_edges_per_node) break;
      if (hit.id === m.id || existing.has(hit.id)) continue;
      if (!(hit.cos >= policy.edge_threshold && hit.cos < policy.merge_threshold)) continue;
      const weight = round4(hit.cos);
      m.edges.push({ target_id: hit.id, type: 'related', weight });
      existing.add(hit.id);
      added++;
      ops.push({
        id: nextId(),
        op: 'link',
        src: m.id,
        dst: hit.id,
        type: 'related',
        weight,
        cos: hit.cos,
        threshold: { min: policy.edge_threshold, below: policy.merge_threshold },
        reason: `cos ${hit.cos.toFixed(4)} within [${policy.edge_threshold}, ${policy.merge_threshold}) and no edge to it yet`,
        window: hit.window,
        depends_on: dependsOnBoth(dependsOn(m.id), dependsOn(hit.id)),
        ...withNotMerged(notMerged(m, view.byId.get(hit.id)!, hit.cos, policy.merge_threshold)),
      });
    }
  }
  return { ops, stopped: false, notes: { memories: live.length } };
}

/** The field only when there is something to explain (most links join different texts). */
function withNotMerged(n: NotMerged | null): { not_merged?: NotMerged } {
  return n ? { not_merged: n } : {};
}

/** The union of two dependency lists, without allocating for the usual empty pair. */
function dependsOnBoth(a: string[], b: string[]): string[] {
  if (a.length === 0 && b.length === 0) return [];
  return [...new Set([...a, ...b])];
}

/** The rescore formula: clamp(0.5·importance + 3·salience + 2·sigmoid(B), 0, 10), floor 8 for ≥ 8. */
export function rescoreValue(importance: number, salience: number, base: number): { value: number; raw: number; floor: boolean } {
  const raw = 0.5 * importance + 3.0 * salience + 2.0 * base;
  let value = Math.min(10.0, Math.max(0.0, raw));
  let floor = false;
  if (importance >= PROTECTED_IMPORTANCE && value < PROTECTED_IMPORTANCE) {
    value = PROTECTED_IMPORTANCE;
    floor = true;
  }
  return { value, raw, floor };
}

export function planRescore(ctx: OpContext, nextId: () => string): OpOutcome<RescoreOp> {
  const ops: RescoreOp[] = [];
  const live = ctx.view.live();
  let unchanged = 0;
  let done = 0;
  for (const m of live) {
    if (ctx.shouldStop()) return { ops, stopped: true, notes: { memories: live.length, unchanged } };
    ctx.onItem?.(++done, live.length);
    const activation = baseLevelActivation(m.access_log as Memory['access_log'], ctx.now, 0.5);
    const base = sigmoid(activation);
    const r = rescoreValue(m.importance, m.salience, base);
    if (isClose(r.value, m.importance)) {
      unchanged++;
      continue;
    }
    ops.push({
      id: nextId(),
      op: 'rescore',
      memory: m.id,
      before: m.importance,
      after: r.value,
      terms: { importance: m.importance, salience: m.salience, activation, base, raw: r.raw, floor_applied: r.floor },
      reason: r.floor
        ? `0.5·${m.importance} + 3·${m.salience} + 2·${base.toFixed(4)} = ${r.raw.toFixed(4)}, held at the floor ${PROTECTED_IMPORTANCE}`
        : `0.5·${m.importance} + 3·${m.salience} + 2·${base.toFixed(4)} = ${r.value.toFixed(4)}`,
    });
    m.importance = r.value;
  }
  return { ops, stopped: false, notes: { memories: live.length, unchanged } };
}

export function planPrune(ctx: OpContext, nextId: () => string): OpOutcome<PruneOp> {
  const { view, forget, now } = ctx;
  const ops: PruneOp[] = [];
  const live = view.live();
  const kept: Record<string, number> = {};
  let done = 0;
  for (const m of live) {
    if (ctx.shouldStop()) return { ops, stopped: true, notes: { memories: live.length } };
    ctx.onItem?.(++done, live.length);
    const d = pruneDecision(
      { type: m.type as Memory['type'], status: m.status as Memory['status'], importance: m.importance, strength: m.strength, last_accessed_at: m.last_accessed_at, created_at: m.created_at, archived: false },
      now,
      forget,
    );
    if (!d.prune) {
      const key = d.reason.startsWith('retention') ? 'kept: retention above threshold' : `kept: ${d.reason.replace(/[\d.]+/g, 'N')}`;
      kept[key] = (kept[key] ?? 0) + 1;
      continue;
    }
    const id = nextId();
    ops.push({
      id,
      op: 'prune',
      memory: m.id,
      action: forget.archive_vs_delete,
      retention: d.retention,
      threshold: forget.prune_activation_threshold,
      strength: m.strength,
      importance: m.importance,
      age_hours: (now - m.created_at) / 3600,
      reason: d.reason,
    });
    view.archive(m.id, id);
  }
  return { ops, stopped: false, notes: { memories: live.length, ...kept } };
}

/** The memories an op reads or writes (a review's "recomputed because …" notes; the memories an apply locks ahead). */
export function touched(o: PlanOp): string[] {
  switch (o.op) {
    case 'merge':
      return [o.anchor, o.dup];
    case 'link':
      return [o.src, o.dst];
    case 'rescore':
    case 'prune':
      return [o.memory];
    case 'reconcile':
      return [...o.cluster, o.consolidated.id];
    case 'abstract':
    case 'episode':
      return [o.memory.id];
  }
}
