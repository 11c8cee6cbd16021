/**
 * Finding one's way through a big plan's items: a link step of a 100k store proposes ~424k edges,
 * which nobody reviews 200 at a time in plan order. The items of one op can be filtered (text,
 * owner, memory type, cosine band, decision state, "identical texts only"), sorted (cosine, type,
 * owner) and sampled (a seeded, repeatable pick of n items), then paged. Pure functions over the
 * plan's ops and the memories' heads (store/sqlite/review-heads.ts); the engine caches the order of the
 * last query per plan so paging through it costs a slice.
 */
import type { PlanOp } from '../reflect/types.js';
import { touched } from '../reflect/ops.js';
import type { ItemState } from './decisions.js';
import type { MemoryHead } from '../store/port/port.js';

export type ItemSort = 'plan' | 'cos_desc' | 'cos_asc' | 'type' | 'owner';

export interface ItemQuery {
  sort?: ItemSort | undefined;
  /** Case-insensitive, in the title or content of a memory the item names, or the item's id. */
  text?: string | undefined;
  /** Items that name a memory of this owner (exact). */
  owner?: string | undefined;
  /** Items that name a memory of this type. */
  type?: string | undefined;
  /** Cosine band [cos_min, cos_max] (items without a cosine never match a band). */
  cos_min?: number | undefined;
  cos_max?: number | undefined;
  state?: ItemState | undefined;
  /** Only links whose two ends carry the same or nearly the same text (they have `not_merged`). */
  not_merged?: boolean | undefined;
  /** A repeatable random pick of this many items (after filtering), then sorted. */
  sample?: number | undefined;
  seed?: number | undefined;
}

export type HeadOf = (id: string) => MemoryHead | undefined;

/** The memories an item is about, its subject first (the link's source, the merge's anchor, the reconciled memory). */
export function subjectsOf(o: PlanOp): string[] {
  return o.op === 'reconcile' ? [o.consolidated.id, ...o.cluster] : touched(o);
}

/** Heads of the memories a generative op proposes (they are not in the store yet). */
export function proposedHead(o: PlanOp): [string, MemoryHead] | null {
  const spec = o.op === 'reconcile' ? o.consolidated : o.op === 'abstract' || o.op === 'episode' ? o.memory : null;
  return spec ? [spec.id, { type: spec.type, owner: spec.owner, title: spec.title, content: spec.content }] : null;
}

const cosOf = (o: PlanOp): number | null => (o.op === 'merge' || o.op === 'link' ? o.cos : null);

/** FNV-1a over seed and id: a stable pseudo-random rank for sampling. */
function rank(seed: number, id: string): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function matcher(q: ItemQuery, headOf: HeadOf, stateOf: (id: string) => ItemState | undefined): (o: PlanOp) => boolean {
  const text = q.text?.trim().toLowerCase() || null;
  const banded = q.cos_min !== undefined || q.cos_max !== undefined;
  return (o) => {
    if (q.state && stateOf(o.id) !== q.state) return false;
    if (q.not_merged && !(o.op === 'link' && o.not_merged)) return false;
    if (banded) {
      const c = cosOf(o);
      if (c === null || (q.cos_min !== undefined && c < q.cos_min) || (q.cos_max !== undefined && c > q.cos_max)) return false;
    }
    if (!q.owner && !q.type && !text) return true;
    const heads = subjectsOf(o).map(headOf);
    if (q.owner && !heads.some((h) => h?.owner === q.owner)) return false;
    if (q.type && !(o.op === 'merge' ? o.type === q.type : heads.some((h) => h?.type === q.type))) return false;
    if (text && !o.id.toLowerCase().includes(text) && !heads.some((h) => h && ((h.title?.toLowerCase().includes(text) ?? false) || h.content.toLowerCase().includes(text)))) return false;
    return true;
  };
}

function comparator(sort: ItemSort, headOf: HeadOf, index: Map<string, number>): ((a: PlanOp, b: PlanOp) => number) | null {
  const planOrder = (a: PlanOp, b: PlanOp) => index.get(a.id)! - index.get(b.id)!;
  const key = (o: PlanOp, f: 'type' | 'owner') => (f === 'type' && o.op === 'merge' ? o.type : (headOf(subjectsOf(o)[0]!)?.[f] ?? ''));
  switch (sort) {
    case 'plan':
      return null;
    case 'cos_desc':
    case 'cos_asc': {
      const dir = sort === 'cos_desc' ? -1 : 1;
      // Items without a cosine keep plan order, after those with one.
      return (a, b) => {
        const ca = cosOf(a);
        const cb = cosOf(b);
        if (ca === null || cb === null) return ca === cb ? planOrder(a, b) : ca === null ? 1 : -1;
        return ca === cb ? planOrder(a, b) : (ca - cb) * dir;
      };
    }
    case 'type':
    case 'owner':
      return (a, b) => {
        const ka = key(a, sort);
        const kb = key(b, sort);
        return ka === kb ? planOrder(a, b) : ka < kb ? -1 : 1;
      };
  }
}

/** The items of `pool` that match the query, in the query's order. */
export function queryItems(pool: readonly PlanOp[], q: ItemQuery, headOf: HeadOf, stateOf: (id: string) => ItemState | undefined): PlanOp[] {
  let out = pool.filter(matcher(q, headOf, stateOf));
  const index = new Map(pool.map((o, i) => [o.id, i]));
  if (q.sample !== undefined && q.sample < out.length) {
    const seed = q.seed ?? 0;
    out = out
      .map((o) => ({ o, r: rank(seed, o.id) }))
      .sort((a, b) => a.r - b.r || index.get(a.o.id)! - index.get(b.o.id)!)
      .slice(0, q.sample)
      .map((x) => x.o)
      .sort((a, b) => index.get(a.id)! - index.get(b.id)!);
  }
  const cmp = comparator(q.sort ?? 'plan', headOf, index);
  return cmp ? out.sort(cmp) : out;
}

/** Whether a query asks for anything beyond plan order. */
export const isPlainQuery = (q: ItemQuery): boolean => Object.values(q).every((v) => v === undefined || v === false || v === 'plan' || v === '');
