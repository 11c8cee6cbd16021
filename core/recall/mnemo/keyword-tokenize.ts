/**
 * The keyword index's term lists (keyword-index.ts): FTS5's tokenizer (core/store/derived/fts-tokenizer.ts)
 * run over rows of two columns, each row's stemmed terms read back with their counts per column.
 */
import type { FtsTokenizer } from '../../store/derived/fts-tokenizer.js';
import type { Terms } from './keyword-doc.js';

/** A row to tokenize: its rowid in the index, its body and the context column's text. */
export interface TokenRow {
  rowid: number;
  body: string;
  context: string;
}

/**
 * Runs FTS5's tokenizer over the rows and reads back each row's stemmed terms per column, a term
 * named by `termId` (which gives a new term the next id). The instance table yields one row per
 * token occurrence (millions at 100k memories), so they are collected into flat typed arrays and
 * bucketed by row with a counting sort, not into per-row objects.
 */
export function tokenizeTerms(tok: FtsTokenizer, rows: readonly TokenRow[], termId: (term: string) => number): Map<number, Terms> {
  let cap = 1 << 16;
  let termOf = new Int32Array(cap);
  let docOf = new Int32Array(cap);
  let colOf = new Uint8Array(cap);
  let n = 0;
  let maxDoc = 0;
  let lastTerm = '';
  let lastId = -1;
  tok.tokenize(rows, (term, rowid, col) => {
    if (term !== lastTerm) {
      lastTerm = term;
      lastId = termId(term);
    }
    if (n === cap) {
      cap *= 2;
      const t = new Int32Array(cap);
      t.set(termOf);
      termOf = t;
      const d = new Int32Array(cap);
      d.set(docOf);
      docOf = d;
      const c = new Uint8Array(cap);
      c.set(colOf);
      colOf = c;
    }
    termOf[n] = lastId;
    docOf[n] = rowid;
    colOf[n] = col;
    if (rowid > maxDoc) maxDoc = rowid;
    n++;
  });
  // Counting sort by row: start[r] .. start[r + 1] holds row r's occurrences.
  const start = new Int32Array(maxDoc + 2);
  for (let k = 0; k < n; k++) start[docOf[k]! + 1]!++;
  for (let r = 0; r <= maxDoc; r++) start[r + 1]! += start[r]!;
  const fill = start.slice(0, maxDoc + 1);
  const byDoc = new Int32Array(n);
  for (let k = 0; k < n; k++) byDoc[fill[docOf[k]!]!++] = k;
  const out = new Map<number, Terms>();
  const seg: number[] = [];
  for (let r = 0; r <= maxDoc; r++) {
    const s0 = start[r]!;
    const s1 = start[r + 1]!;
    if (s0 === s1) continue;
    // Sort the row's occurrences by term id (lookups bisect), then fold repeats into counts.
    seg.length = 0;
    for (let k = s0; k < s1; k++) seg.push(byDoc[k]!);
    seg.sort((x, y) => termOf[x]! - termOf[y]!);
    let distinct = 0;
    for (let k = 0; k < seg.length; k++) if (k === 0 || termOf[seg[k]!] !== termOf[seg[k - 1]!]) distinct++;
    const ids = new Int32Array(distinct);
    const body = new Float32Array(distinct);
    const context = new Float32Array(distinct);
    let j = -1;
    for (let k = 0; k < seg.length; k++) {
      const o = seg[k]!;
      if (k === 0 || termOf[o] !== termOf[seg[k - 1]!]) ids[++j] = termOf[o]!;
      if (colOf[o] === 0) body[j]!++;
      else context[j]!++;
    }
    out.set(r, { ids, body, context, length: seg.length });
  }
  return out;
}
