/**
 * The keyword index's bulk postings (keyword-doc.ts Postings) and the documents' term lists, each
 * made from the other: the postings built from every live document's terms, and a document's
 * terms found back in the postings (a document read from a snapshot has no list of its own until
 * a change needs it, keyword-index.ts termsOf).
 */
import type { Doc, Postings, Terms } from './keyword-doc.js';

/** The terms of a document with none (and of a document removed). */
export const EMPTY_TERMS: Terms = { ids: new Int32Array(0), body: new Float32Array(0), context: new Float32Array(0), length: 0 };
export const NO_POSTINGS: Postings = { start: new Int32Array(1), rowids: new Int32Array(0), body: new Float32Array(0), context: new Float32Array(0) };

/** Where x is in sorted[from, to), or −1. */
export function bisect(sorted: Int32Array, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Bulk postings of `terms` terms from the documents' term lists; `docs` in rowid order, so each term's rows ascend (termsInPostings bisects them). */
export function buildPostings(docs: readonly Doc[], terms: number): Postings {
  const start = new Int32Array(terms + 1);
  for (const d of docs) for (const t of d.terms!.ids) start[t + 1]!++;
  for (let t = 0; t < terms; t++) start[t + 1]! += start[t]!;
  const total = start[terms]!;
  const postings: Postings = { start, rowids: new Int32Array(total), body: new Float32Array(total), context: new Float32Array(total) };
  const fill = start.slice(0, terms);
  for (const d of docs) {
    const t = d.terms!;
    for (let i = 0; i < t.ids.length; i++) {
      const k = fill[t.ids[i]!]!++;
      postings.rowids[k] = d.rowid;
      postings.body[k] = t.body[i]!;
      postings.context[k] = t.context[i]!;
    }
  }
  return postings;
}

/** The terms of the document at `rowid` as the postings hold them (exact until it changes), its length `length`. */
export function termsInPostings(postings: Postings, rowid: number, length: number): Terms {
  const { start, rowids, body, context } = postings;
  const ids: number[] = [];
  const at: number[] = [];
  for (let t = 0; t + 1 < start.length; t++) {
    const i = bisect(rowids, start[t]!, start[t + 1]!, rowid);
    if (i >= 0) {
      ids.push(t);
      at.push(i);
    }
  }
  return {
    ids: Int32Array.from(ids),
    body: Float32Array.from(at, (i) => body[i]!),
    context: Float32Array.from(at, (i) => context[i]!),
    length,
  };
}

/**
 * Gives every document without a term list its terms from the postings at once (a rebuild of the
 * postings needs them all): one pass over the postings, read (`readPostings`) only when a document
 * lacks its list. `lengths` are the documents' lengths by rowid, all below `nextRowid`.
 */
export function resolveTermsFromPostings(docs: ReadonlyMap<string, Doc>, nextRowid: number, lengths: Float64Array, readPostings: () => Postings): void {
  const pending = new Uint8Array(nextRowid);
  const counts = new Int32Array(nextRowid);
  let any = false;
  for (const d of docs.values()) {
    if (d.terms) continue;
    pending[d.rowid] = 1;
    any = true;
  }
  if (!any) return;
  const { start, rowids, body, context } = readPostings();
  for (let i = 0; i < rowids.length; i++) if (pending[rowids[i]!] === 1) counts[rowids[i]!]!++;
  const lists = new Map<number, Terms & { n: number }>();
  for (const d of docs.values()) {
    if (d.terms) continue;
    const c = counts[d.rowid]!;
    const list = { ids: new Int32Array(c), body: new Float32Array(c), context: new Float32Array(c), length: lengths[d.rowid]!, n: 0 };
    lists.set(d.rowid, list);
  }
  for (let t = 0; t + 1 < start.length; t++) {
    for (let i = start[t]!; i < start[t + 1]!; i++) {
      if (pending[rowids[i]!] !== 1) continue;
      const list = lists.get(rowids[i]!)!;
      list.ids[list.n] = t;
      list.body[list.n] = body[i]!;
      list.context[list.n] = context[i]!;
      list.n++;
    }
  }
  for (const d of docs.values()) {
    const list = d.terms ? null : lists.get(d.rowid)!;
    if (list) d.terms = { ids: list.ids, body: list.body, context: list.context, length: list.length };
  }
}
