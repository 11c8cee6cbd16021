/**
 * The BM25 leg's pruning (keyword-bm25.ts scoreBm25) gives exactly what scoring every posting gives
 * (scoreAllBm25): the same rows in the same order with the same scores, bit for bit, on random
 * indexes: common and rare terms, rows changed since the postings were built (stale in them, scored
 * from their own lists), an owner scope hiding most rows, limits larger than the matches, context
 * weights, and queries naming a term twice or a term no row holds.
 *
 * What could go wrong: a bound that is not one (a row left out that belonged in the top rows), a
 * tie broken another way, a score summed in another order (its last bit differs), a fresh row
 * forgotten, a hidden row counted toward the cut, a row changed or deleted since the postings were
 * built counted by its old postings.
 */
import { describe, expect, it } from 'vitest';
import { scoreAllBm25, scoreBm25, TermBounds, type KeywordSearch, type ScoredIndex } from '../../core/recall/mnemo/keyword-bm25.js';
import type { Doc } from '../../core/recall/mnemo/keyword-doc.js';
import { rng } from '../../core/demo/generate.js';

interface Built {
  index: ScoredIndex;
  terms: number;
}

/** A random index: `rows` documents over `terms` terms with Zipf-like frequencies, some rows fresh (stale in the bulk postings). */
/**
 * `leftovers`: some of the first fifth of the rows were changed or deleted after the postings were
 * built, and their old postings are still there, stale, with frequencies higher than any live row's:
 * counted anywhere, they would lift a row or the floor above what the live rows score.
 */
function randomIndex(seed: number, rows: number, terms: number, shape: { maxBody: number; lengthNoise: number; leftovers?: boolean } = { maxBody: 4, lengthNoise: 20 }): Built {
  const rand = rng(seed);
  const byTerm: { rowid: number; body: number; context: number }[][] = Array.from({ length: terms }, () => []);
  const lengths = new Float64Array(rows + 1);
  const byRowid: (Doc | undefined)[] = [];
  const staleMask = new Uint8Array(rows + 1);
  const fresh = new Set<number>();
  const df = new Array<number>(terms).fill(0);
  let totalLength = 0;
  const owners = ['', 'coder@1', 'planner@2', 'coder@3'];
  for (let rowid = 1; rowid <= rows; rowid++) {
    const own: { ids: number[]; body: number[]; context: number[] } = { ids: [], body: [], context: [] };
    let length = 0;
    for (let t = 0; t < terms; t++) {
      // Term t is held by about a share 1/(t+1.5) of the rows: the first few by most, the last by a handful.
      if (rand() > 1 / (t + 1.5)) continue;
      const body = rand() < 0.2 ? 0 : 1 + Math.floor(rand() * shape.maxBody);
      const context = rand() < 0.6 ? 0 : 1 + Math.floor(rand() * 3);
      if (body === 0 && context === 0) continue;
      own.ids.push(t);
      own.body.push(body);
      own.context.push(context);
      length += body + context;
      df[t]!++;
    }
    length += Math.floor(rand() * shape.lengthNoise);
    lengths[rowid] = length;
    totalLength += length;
    const leftover = shape.leftovers === true && rowid <= rows / 5 && rand() < 0.3;
    const deleted = leftover && rand() < 0.5;
    const isFresh = (leftover && !deleted) || rand() < 0.03;
    const doc = { rowid, id: `m${rowid}`, owner: owners[Math.floor(rand() * owners.length)]!, body: null, links: new Set<string>(), terms: null } as unknown as Doc;
    if (leftover) own.ids.forEach((t) => byTerm[t]!.push({ rowid, body: shape.maxBody + 5, context: 3 }));
    if (deleted) {
      staleMask[rowid] = 1;
    } else if (isFresh) {
      staleMask[rowid] = 1;
      fresh.add(rowid);
      doc.terms = { ids: Int32Array.from(own.ids), body: Float32Array.from(own.body), context: Float32Array.from(own.context), length };
    } else {
      own.ids.forEach((t, i) => byTerm[t]!.push({ rowid, body: own.body[i]!, context: own.context[i]! }));
    }
    byRowid[rowid] = doc;
  }
  const start = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) start[t + 1] = start[t]! + byTerm[t]!.length;
  const rowids = new Int32Array(start[terms]!);
  const body = new Float32Array(start[terms]!);
  const context = new Float32Array(start[terms]!);
  for (let t = 0; t < terms; t++) {
    byTerm[t]!.forEach((p, i) => {
      rowids[start[t]! + i] = p.rowid;
      body[start[t]! + i] = p.body;
      context[start[t]! + i] = p.context;
    });
  }
  // The last two terms have no bulk postings: met only after the postings were built (fresh rows' own lists).
  const postedTerms = terms - 2;
  return {
    terms,
    index: {
      docCount: rows,
      totalLength,
      df,
      lengths,
      staleMask,
      postedTerms,
      postingsOf: (term) => ({ rowids, body, context, from: start[term]!, to: start[term + 1]! }),
      fresh,
      freshTerms: (rowid) => byRowid[rowid]!.terms!,
      idOf: (rowid) => byRowid[rowid]!.id,
      ownerOf: (rowid) => byRowid[rowid]!.owner,
    },
  };
}

describe('the BM25 leg prunes postings and still gives what scoring them all gives', () => {
  it('equals scoreAllBm25 bit for bit on random indexes, queries, scopes and limits', () => {
    let compared = 0;
    let hits = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { index, terms } = randomIndex(seed, 3000 + seed * 250, 40);
      const bounds = new TermBounds();
      const rand = rng(1000 + seed);
      const acc = new Float64Array(index.lengths.length * 2);
      for (let qn = 0; qn < 40; qn++) {
        const stems = Array.from({ length: 1 + Math.floor(rand() * 7) }, () => Math.floor(rand() * terms));
        const scope = rand() < 0.3 ? (rand() < 0.5 ? 'coder@' : 'planner@2') : null;
        const q: KeywordSearch = {
          terms: [],
          limit: [1, 10, 100, 5000][Math.floor(rand() * 4)]!,
          contextWeight: [0, 0.5, 1, 2.5][Math.floor(rand() * 4)]!,
          ...(scope ? { visible: (owner: string) => owner.startsWith(scope) } : {}),
        };
        const all = scoreAllBm25(index, stems, q, acc);
        expect(acc.every((x) => x === 0)).toBe(true);
        const pruned = scoreBm25(index, stems, q, acc, bounds);
        expect(acc.every((x) => x === 0)).toBe(true);
        // Object.is on every score: the same bits, not merely close.
        expect(pruned.map((h) => h.id)).toEqual(all.map((h) => h.id));
        pruned.forEach((h, i) => expect(Object.is(h.score, all[i]!.score), `${h.id}: ${h.score} vs ${all[i]!.score}`).toBe(true));
        compared++;
        hits += all.length;
      }
    }
    expect(compared).toBe(480);
    expect(hits).toBeGreaterThan(10_000);
  });

  it('counts no row changed or deleted since the postings were built by its old postings', () => {
    // The leftovers sit at the front of the lists with frequencies above every live row's: counted
    // by them, a row (or the floor the pruning keeps) would sit above every live row's score.
    let compared = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const { index, terms } = randomIndex(seed, 3000, 20, { maxBody: 2, lengthNoise: 4, leftovers: true });
      const bounds = new TermBounds();
      const rand = rng(3000 + seed);
      const acc = new Float64Array(index.lengths.length * 2);
      for (let qn = 0; qn < 30; qn++) {
        const stems = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => Math.floor(rand() * (terms - 2)));
        const q: KeywordSearch = { terms: [], limit: [5, 20, 60][Math.floor(rand() * 3)]!, contextWeight: 0.5 };
        const all = scoreAllBm25(index, stems, q, acc);
        const pruned = scoreBm25(index, stems, q, acc, bounds);
        expect(pruned.map((h) => h.id)).toEqual(all.map((h) => h.id));
        pruned.forEach((h, i) => expect(Object.is(h.score, all[i]!.score)).toBe(true));
        compared++;
      }
    }
    expect(compared).toBe(240);
  });

  it('keeps a row whose last terms bring exactly the most a row of its length could gain', () => {
    // Every frequency 1 and every length only the row's own terms: a row's share of a term is then
    // exactly the bound at its length, so a bound any lower than that leaves out rows that belong.
    let compared = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { index, terms } = randomIndex(seed, 2000, 12, { maxBody: 1, lengthNoise: 1 });
      const bounds = new TermBounds();
      const rand = rng(2000 + seed);
      const acc = new Float64Array(index.lengths.length * 2);
      for (let qn = 0; qn < 40; qn++) {
        const stems = Array.from({ length: 2 + Math.floor(rand() * 6) }, () => Math.floor(rand() * (terms - 2)));
        const q: KeywordSearch = { terms: [], limit: 1 + Math.floor(rand() * 5), contextWeight: 0 };
        const all = scoreAllBm25(index, stems, q, acc);
        const pruned = scoreBm25(index, stems, q, acc, bounds);
        expect(pruned.map((h) => h.id)).toEqual(all.map((h) => h.id));
        compared++;
      }
    }
    expect(compared).toBe(800);
  });
});
