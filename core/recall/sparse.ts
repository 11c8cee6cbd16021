/**
 * nooa's keyword leg (`store.keyword_search`): for each query token (distinct, first occurrence
 * order, at most 12) every live memory in scope whose text contains it, as `lower(content) LIKE
 * '%tok%'` does; a memory scores the number of tokens it matched; stable sort by score, so ties
 * stay in first-seen order (token order, then rowid order); the top n are kept.
 */
import { ownerMatchesSql, type OwnerScope } from '../model/owner.js';
import type { RecallCorpus } from './corpus.js';
import type { SparseField } from './profile.js';

export interface SparseHit {
  id: string;
  slot: number;
  /** How many tokens matched. */
  count: number;
}

export function sparseLeg(corpus: RecallCorpus, tokens: readonly string[], fields: readonly SparseField[], scope: OwnerScope, n: number): SparseHit[] {
  if (tokens.length === 0 || n <= 0) return [];
  const counts = new Uint8Array(corpus.size);
  /** 0 = not seen yet, 1 = visible, 2 = out of scope. */
  const state = new Uint8Array(corpus.size);
  const touched: number[] = [];
  const byOwner = new Map<string, boolean>();
  const inScope = (slot: number): boolean => {
    if (scope === null) return true;
    const owner = corpus.owners[slot]!;
    let v = byOwner.get(owner);
    if (v === undefined) byOwner.set(owner, (v = ownerMatchesSql(owner, scope)));
    return v;
  };
  for (const token of tokens) {
    corpus.match(fields, token, (slot) => {
      const s = state[slot];
      if (s === 0) {
        if (!inScope(slot)) {
          state[slot] = 2;
          return;
        }
        state[slot] = 1;
        touched.push(slot);
      } else if (s === 2) return;
      counts[slot] = counts[slot]! + 1;
    });
  }
  // Stable selection: per score, the first n slots in first-seen order.
  const buckets: number[][] = Array.from({ length: tokens.length + 1 }, () => []);
  for (const slot of touched) {
    const b = buckets[counts[slot]!]!;
    if (b.length < n) b.push(slot);
  }
  const out: SparseHit[] = [];
  for (let c = tokens.length; c >= 1 && out.length < n; c--) {
    for (const slot of buckets[c]!) {
      if (out.length >= n) break;
      out.push({ id: corpus.ids[slot]!, slot, count: c });
    }
  }
  return out;
}
