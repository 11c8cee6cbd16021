/**
 * Reviewing a reflection plan without shipping it whole to the UI: a plan of a 100k-memory store
 * holds ~500k proposals (~180 MB of JSON), so the engine keeps it and the workbench asks for a
 * summary, pages of items with their accept / reject state, and counts. The reviewer's choices
 * travel as the list of their actions (accept / reject items or whole ops, in order, so the latest
 * wins); the states follow from it with the apply rule (decisions.ts), and commit applies exactly
 * the accepted ids.
 */
import { addEffect, noEffects, type CommitEffects } from '../reflect/effects.js';
import { OP_NAMES, type OpName } from '../reflect/policy.js';
import { planKind } from '../reflect/plan-registry.js';
import type { OpGroup, PlanOp, ReflectionPlan } from '../reflect/types.js';
import { acceptedIds, acceptWithDependencies, decide, type Decision } from './decisions.js';
import { isPlainQuery, proposedHead, queryItems, type ItemQuery } from './item-query.js';
import type { MemoryHead } from '../store/port/port.js';


/** One reviewer action: accept or reject some items, or every item of one op ("Accept all"). */
export interface ReviewAction {
  do: 'accept' | 'reject';
  ids?: string[] | undefined;
  group?: OpName | undefined;
}

/** Everything within one owner starts accepted, proposals across owners unaccepted; actions apply in order. Accepting an item accepts what it follows. */
export type ReviewSpec = ReviewAction[];

export interface PlanSummary extends Omit<ReflectionPlan, 'groups'> {
  groups: (Omit<OpGroup, 'ops'> & { count: number })[];
  items: number;
  /** Merges and links across two owners: they start unaccepted, each flagged. */
  cross_owner: number;
}

export interface ReviewItem {
  op: PlanOp;
  state: Decision['state'];
  because: string[];
  note: string | null;
  /** Its two memories have different owners (it started unaccepted). */
  cross_owner: boolean;
}

export interface ReviewCounts {
  groups: Record<string, { accepted: number; rejected: number; follows: number; total: number }>;
  accepted: number;
  rejected: number;
  follows: number;
  total: number;
  /** The accepted ids, when there are at most `idsUpTo` of them (for tools and tests). */
  accepted_ids: string[] | null;
  /** What committing the accepted items will do, as planned, for the confirmation before commit. */
  effects: CommitEffects;
}

export type { CommitEffects } from '../reflect/effects.js';

/** The two memories a merge or a link pairs (the review flags a pair across owners); null for the other ops. */
function pairOf(o: PlanOp): [string, string] | null {
  return o.op === 'merge' ? [o.anchor, o.dup] : o.op === 'link' ? [o.src, o.dst] : null;
}

/** Every memory that some merge or link of the plan pairs: the owners ReviewedPlan's `ownerOf` is asked for. */
export function pairedIds(plan: ReflectionPlan): string[] {
  const ids = new Set<string>();
  for (const g of plan.groups) {
    for (const o of g.ops) {
      const pair = pairOf(o);
      if (pair) for (const id of pair) ids.add(id);
    }
  }
  return [...ids];
}

export class ReviewedPlan {
  readonly ops: PlanOp[];
  private readonly groupOf = new Map<string, string>();
  private cache: { key: string; decisions: Map<string, Decision> } | null = null;
  private heads: Map<string, MemoryHead> | null = null;
  /** The order of the last filtered / sorted / sampled query, so paging through it is a slice. */
  private lastQuery: { key: string; ops: PlanOp[] } | null = null;

  /** Merges and links whose two memories have different owners, with the owners: they start unaccepted, flagged. */
  readonly crossOwner = new Map<string, [string, string]>();

  /** `ownerOf` names each memory's owner (the store's), so cross-owner proposals can start unaccepted. */
  constructor(
    readonly plan: ReflectionPlan,
    ownerOf: (id: string) => string | undefined = () => undefined,
  ) {
    // In apply order, which is pass order.
    const groups = [...plan.groups].sort((a, b) => OP_NAMES.indexOf(a.op) - OP_NAMES.indexOf(b.op));
    this.ops = groups.flatMap((g) => g.ops);
    for (const g of groups) for (const o of g.ops) this.groupOf.set(o.id, g.op);
    for (const o of this.ops) {
      const pair = pairOf(o);
      if (!pair) continue;
      const a = ownerOf(pair[0]);
      const b = ownerOf(pair[1]);
      if (a !== undefined && b !== undefined && a !== b) this.crossOwner.set(o.id, [a, b]);
    }
  }

  summary(): PlanSummary {
    const { groups, ...rest } = this.plan;
    return { ...rest, groups: groups.map(({ ops, ...g }) => ({ ...g, count: ops.length })), items: this.ops.length, cross_owner: this.crossOwner.size };
  }

  private idsOf(a: ReviewAction): string[] {
    const ids = a.ids ?? [];
    if (!a.group) return ids;
    return [...ids, ...(this.plan.groups.find((g) => g.op === a.group)?.ops.map((o) => o.id) ?? [])];
  }

  /** The rejected set after replaying the actions (unknown ids are ignored: they cannot apply). */
  rejectedSet(spec: ReviewSpec): Set<string> {
    // Within one owner everything starts accepted; a proposal across owners starts unaccepted.
    let rejected = new Set<string>(this.crossOwner.keys());
    for (const a of spec) {
      const ids = this.idsOf(a).filter((id) => this.groupOf.has(id));
      if (a.do === 'reject') for (const id of ids) rejected.add(id);
      else if (ids.length) {
        // Only pay for the dependency walk when something accepted is not already applying.
        const d = decide(this.ops, rejected);
        rejected = ids.some((id) => d.get(id)?.state !== 'accepted') ? acceptWithDependencies(this.ops, rejected, ids) : rejected;
      }
    }
    return rejected;
  }

  decisions(spec: ReviewSpec): Map<string, Decision> {
    const key = JSON.stringify(spec);
    if (this.cache?.key === key) return this.cache.decisions;
    const decisions = decide(this.ops, this.rejectedSet(spec));
    for (const [id, [a, b]] of this.crossOwner) {
      const d = decisions.get(id);
      if (!d) continue;
      const flag = `across owners: ${a || '(unowned)'} and ${b || '(unowned)'}${d.state === 'accepted' ? ' (accepted by you)' : '; starts unaccepted: accept it to apply it'}`;
      decisions.set(id, { ...d, note: d.note ? `${flag}. ${d.note}` : flag });
    }
    this.cache = { key, decisions };
    return decisions;
  }

  /**
   * A page of one op's items (or all ops'), in plan order or as `query` filters, sorts and samples
   * them; `loadHeads` reads the memories' heads the first time a query needs them.
   */
  items(
    spec: ReviewSpec,
    op: string | null,
    offset: number,
    limit: number,
    query: ItemQuery = {},
    loadHeads: () => Map<string, MemoryHead> = () => new Map(),
  ): { total: number; matched: number; items: ReviewItem[] } {
    const d = this.decisions(spec);
    const pool = op ? (this.plan.groups.find((g) => g.op === op)?.ops ?? []) : this.ops;
    let picked: readonly PlanOp[] = pool;
    if (!isPlainQuery(query)) {
      const key = JSON.stringify([op, query, query.state ? spec : null]);
      if (this.lastQuery?.key !== key) this.lastQuery = { key, ops: queryItems(pool, query, this.headOf(loadHeads), (id) => d.get(id)?.state) };
      picked = this.lastQuery.ops;
    }
    return {
      total: pool.length,
      matched: picked.length,
      items: picked.slice(offset, offset + limit).map((o) => {
        const x = d.get(o.id)!;
        return { op: o, state: x.state, because: x.because, note: x.note, cross_owner: this.crossOwner.has(o.id) };
      }),
    };
  }

  private headOf(load: () => Map<string, MemoryHead>): (id: string) => MemoryHead | undefined {
    if (!this.heads) {
      this.heads = load();
      for (const o of this.ops) {
        const p = proposedHead(o);
        if (p) this.heads.set(p[0], p[1]);
      }
    }
    const heads = this.heads;
    return (id) => heads.get(id);
  }

  counts(spec: ReviewSpec, idsUpTo = 10_000): ReviewCounts {
    const d = this.decisions(spec);
    const groups: ReviewCounts['groups'] = {};
    for (const g of this.plan.groups) groups[g.op] = { accepted: 0, rejected: 0, follows: 0, total: g.ops.length };
    let accepted = 0;
    let rejected = 0;
    let follows = 0;
    const effects = noEffects();
    for (const o of this.ops) {
      const s = d.get(o.id)!.state;
      const g = groups[this.groupOf.get(o.id)!]!;
      g[s]++;
      if (s === 'accepted') {
        accepted++;
        addEffect(effects, o);
      } else if (s === 'rejected') rejected++;
      else follows++;
    }
    return { groups, accepted, rejected, follows, total: this.ops.length, accepted_ids: accepted <= idsUpTo ? acceptedIds(this.ops, d) : null, effects };
  }

  accepted(spec: ReviewSpec): string[] {
    return acceptedIds(this.ops, this.decisions(spec));
  }
}

/** The plans under review, kept in the engine's plan registry (the last few: a plan of a big store is large). */
export const REVIEWED_PLANS = planKind<ReviewedPlan>('review');
