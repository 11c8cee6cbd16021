/**
 * Accept / reject on a reflection plan, and what follows from it. The rule is the engine's apply
 * rule (core/reflect/apply.ts), run ahead of time so the view can say what a rejection drags along:
 *   - a link to a memory that a generative op would create needs that op (`depends_on`);
 *   - a knn-derived merge or link exists only because earlier ops archived the entries ranked above
 *     it (`window.displaced`); if those ops are dropped the entries come back, and a proposal pushed
 *     out of its k-window is dropped too.
 * Rescore and prune are recomputed at commit, so a dropped merge only adjusts them (noted).
 * Pure functions over the plan; tested in test/unit/review-decisions.test.ts.
 */
import { touched } from '../reflect/ops.js';
import type { PlanOp, WindowInfo } from '../reflect/types.js';

export type ItemState = 'accepted' | 'rejected' | 'follows';

export interface Decision {
  state: ItemState;
  /** For `follows`: the dropped ops this item depends on. */
  because: string[];
  /** A remark shown on the item (why it follows, or that commit will recompute it). */
  note: string | null;
}

function pushedOut(w: WindowInfo, dropped: ReadonlySet<string>): string[] | null {
  const back = w.displaced.filter((d) => dropped.has(d.by));
  return w.position + back.length >= w.k ? [...new Set(back.map((d) => d.by))] : null;
}

export function decide(ops: readonly PlanOp[], rejected: ReadonlySet<string>): Map<string, Decision> {
  const out = new Map<string, Decision>();
  // As apply does: every op left out counts as dropped from the start.
  const dropped = new Set<string>(rejected);
  /** Memory id → the dropped ops that would have changed it. */
  const untouched = new Map<string, string[]>();
  const drop = (o: PlanOp) => {
    dropped.add(o.id);
    for (const id of touched(o)) untouched.set(id, [...(untouched.get(id) ?? []), o.id]);
  };
  for (const o of ops) {
    if (rejected.has(o.id)) {
      out.set(o.id, { state: 'rejected', because: [], note: null });
      drop(o);
      continue;
    }
    let because: string[] | null = null;
    let note: string | null = null;
    if (o.op === 'link') {
      const gone = o.depends_on.filter((d) => dropped.has(d));
      if (gone.length) {
        because = gone;
        note = `follows ${gone.join(', ')}: an endpoint would not exist`;
      }
    }
    if (!because && (o.op === 'merge' || o.op === 'link')) {
      const out2 = pushedOut(o.window, dropped);
      if (out2) {
        because = out2;
        note = `follows ${out2.join(', ')}: without ${out2.length > 1 ? 'them' : 'it'} an entry ranked above comes back and pushes this one out of its ${o.window.k}-window`;
      }
    }
    if (because) {
      out.set(o.id, { state: 'follows', because, note });
      drop(o);
      continue;
    }
    if (o.op === 'rescore' || o.op === 'prune' || o.op === 'merge') {
      const by = [...new Set(touched(o).flatMap((id) => untouched.get(id) ?? []))];
      if (by.length) note = `recomputed at commit: ${by.join(', ')} ${by.length > 1 ? 'were' : 'was'} dropped${o.op === 'prune' ? ' (the guard is checked again)' : ''}`;
    }
    out.set(o.id, { state: 'accepted', because: [], note });
  }
  return out;
}

/**
 * Accepting an item that follows a rejected one accepts what it follows too (transitively), so
 * "accept" always makes the item apply; returns the new rejected set.
 */
export function acceptWithDependencies(ops: readonly PlanOp[], rejected: ReadonlySet<string>, ids: readonly string[]): Set<string> {
  const next = new Set(rejected);
  let frontier = [...ids];
  for (let guard = 0; frontier.length && guard < 1000; guard++) {
    for (const id of frontier) next.delete(id);
    const d = decide(ops, next);
    frontier = frontier.flatMap((id) => d.get(id)?.because ?? []).filter((id) => next.has(id) || d.get(id)?.state === 'follows');
  }
  return next;
}

/** The op ids that will be sent to apply. */
export function acceptedIds(ops: readonly PlanOp[], decisions: Map<string, Decision>): string[] {
  return ops.filter((o) => decisions.get(o.id)?.state === 'accepted').map((o) => o.id);
}
