/**
 * nooa's keyword leg (`store.keyword_search`): for each query token (distinct, first occurrence
 * order, at most 12) every live memory in scope whose text contains it, as `lower(content) LIKE
 * '%tok%'` does; a memory scores the number of tokens it matched; stable sort by score, so ties
 * stay in first-seen order (first matching token, then rowid); the top n are kept.
 *
 * Word-parallel: each token's matches are a bitset, the per-memory count is kept in four bit
 * planes (a ripple-carry add per token), and the top n are read out by (count, first token,
 * slot) without visiting memories that cannot make the cut. Common short tokens ("a", "to")
 * match most of the store; this costs the same few thousand word operations for them.
 */
import type { OwnerScope } from '../model/owner.js';
import type { RecallCorpus } from './corpus.js';
import type { SparseField } from './profile.js';

export interface SparseHit {
  id: string;
  slot: number;
  /** How many tokens matched. */
  count: number;
}

const PLANES = 4; // counts up to 15 ≥ the 12-token cap

export function sparseLeg(corpus: RecallCorpus, tokens: readonly string[], fields: readonly SparseField[], scope: OwnerScope, n: number): SparseHit[] {
  const T = Math.min(tokens.length, 2 ** PLANES - 1);
  if (T === 0 || n <= 0) return [];
  const words = corpus.words;
  const inScope = corpus.scopeBits(scope);
  const match: Uint32Array[] = [];
  const planes = Array.from({ length: PLANES }, () => new Uint32Array(words));
  for (let t = 0; t < T; t++) {
    const bits = new Uint32Array(words);
    corpus.matchBits(fields, tokens[t]!, bits);
    for (let w = 0; w < words; w++) {
      let carry = (bits[w] = bits[w]! & inScope[w]!);
      for (let p = 0; p < PLANES && carry !== 0; p++) {
        const plane = planes[p]!;
        const next = plane[w]! & carry;
        plane[w] = plane[w]! ^ carry;
        carry = next;
      }
    }
    match.push(bits);
  }
  const out: SparseHit[] = [];
  for (let c = T; c >= 1 && out.length < n; c--) {
    // Memories matching exactly c tokens, grouped by the first token they matched, in slot order.
    const seen = new Uint32Array(words);
    for (let t = 0; t < T && out.length < n; t++) {
      const bits = match[t]!;
      for (let w = 0; w < words && out.length < n; w++) {
        const b = bits[w]!;
        if (b === 0) continue;
        let eq = b & ~seen[w]!;
        seen[w] = seen[w]! | b;
        for (let p = 0; p < PLANES && eq !== 0; p++) eq &= (c >> p) & 1 ? planes[p]![w]! : ~planes[p]![w]!;
        while (eq !== 0 && out.length < n) {
          const low = eq & -eq;
          const slot = (w << 5) + (31 - Math.clz32(low));
          out.push({ id: corpus.idOf(slot), slot, count: c });
          eq ^= low;
        }
      }
    }
  }
  return out;
}
