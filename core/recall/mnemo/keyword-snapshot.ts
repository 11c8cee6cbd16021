/**
 * The keyword index as snapshot parts: its vocabulary; per document (in rowid order) its id,
 * owner, text, precedes links and length; and the bulk postings as they are scored (per term, the
 * rows with their counts per column). Reading it back takes the postings as views on the bytes
 * read and makes no term list per document: a document's terms are found in the postings when a
 * change needs them (keyword-index.ts termsOf), and its text is decoded when first needed. The
 * document frequencies and the total length follow from the postings and the lengths.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, type PartSource, type SnapshotParts, type Utf8Run } from '../../store/derived/snapshot-parts.js';
import { NO_LINKS, type Doc, type Postings } from './keyword-doc.js';

export interface KeywordState {
  vocab: string[];
  /** In rowid order. */
  docs: Doc[];
  /** Each document's length (tokens in both columns), in the same order. */
  lengths: Uint32Array;
  /** Exact: every live document's terms and nothing else. */
  postings: Postings;
  nextRowid: number;
}

export interface RestoredKeywordState extends Omit<KeywordState, 'postings'> {
  /** The documents' texts, by `Doc.stored`. */
  bodies: Utf8Run;
  /** Where each term's postings start (the rows follow from `postings`). */
  start: Int32Array;
  /** The postings, a term's read (and checked) when first needed. */
  postings: StoredPostings;
}

/** A term's postings as they lie in a snapshot (its rows ascending). */
export interface TermPostings {
  rowids: Int32Array;
  body: Float32Array;
  context: Float32Array;
}

/** Postings read from a snapshot: one term's (a query's), or all (a rebuild, a change's term list); throw SnapshotMismatch when damaged. */
export interface StoredPostings {
  term(t: number): TermPostings;
  all(): Postings;
}

export function encodeKeywordState(state: KeywordState, bodyOf: (d: Doc) => string): SnapshotParts | null {
  const { docs } = state;
  const w = new PartsWriter();
  if (!w.strings('vocab', state.vocab)) return null;
  if (!w.strings('ids', docs.map((d) => d.id)) || !w.strings('owners', docs.map((d) => d.owner)) || !w.utf8Each('bodies', docs.map(bodyOf))) return null;
  const position = new Map<string, number>();
  docs.forEach((d, i) => position.set(d.id, i));
  const rowids = new Int32Array(docs.length);
  const linkCounts = new Uint32Array(docs.length);
  let links = 0;
  docs.forEach((d, i) => {
    rowids[i] = d.rowid;
    linkCounts[i] = d.links.size;
    links += d.links.size;
  });
  const linkTargets = new Uint32Array(links);
  let l = 0;
  for (const d of docs) {
    for (const other of d.links) {
      const p = position.get(other);
      if (p === undefined) return null; // a link to a document the index no longer holds: rebuild next time rather than store it
      linkTargets[l++] = p;
    }
  }
  w.typed('rowids', rowids);
  w.typed('lengths', state.lengths);
  w.typed('links.count', linkCounts);
  w.typed('links.target', linkTargets);
  w.typed('postings.start', state.postings.start);
  w.typed('postings.rowid', state.postings.rowids);
  w.typed('postings.body', state.postings.body);
  w.typed('postings.context', state.postings.context);
  w.json('meta', { nextRowid: state.nextRowid });
  return w.parts;
}

export function decodeKeywordState(parts: PartSource): RestoredKeywordState {
  const r = new PartsReader(parts);
  const vocab = r.strings('vocab');
  const ids = r.strings('ids');
  const n = ids.length;
  const owners = r.strings('owners', n);
  const bodies = r.utf8Run('bodies', n);
  const rowids = r.typed('rowids', Int32Array, n);
  const lengths = r.typed('lengths', Uint32Array, n);
  const linkCounts = r.typed('links.count', Uint32Array, n);
  const linkTargets = r.typed('links.target', Uint32Array);
  const start = r.typed('postings.start', Int32Array, vocab.length + 1);
  const total = r.lengthOf('postings.rowid', Int32Array);
  if (r.lengthOf('postings.body', Float32Array) !== total || r.lengthOf('postings.context', Float32Array) !== total) throw new SnapshotMismatch('the postings do not add up');
  const { nextRowid } = r.json<{ nextRowid: number }>('meta');
  if (!Number.isInteger(nextRowid) || (n > 0 && nextRowid <= rowids[n - 1]!)) throw new SnapshotMismatch('the next rowid is behind the documents');
  const known = knownRowids(rowids, nextRowid);
  checkStarts(start, total);
  const postings: StoredPostings = {
    term: (t) => {
      const from = start[t]!;
      const to = start[t + 1]!;
      const term = { rowids: r.typedRange('postings.rowid', Int32Array, from, to), body: r.typedRange('postings.body', Float32Array, from, to), context: r.typedRange('postings.context', Float32Array, from, to) };
      checkRows(term.rowids, 0, to - from, known);
      return term;
    },
    all: () => {
      const all: Postings = { start, rowids: r.typed('postings.rowid', Int32Array), body: r.typed('postings.body', Float32Array, total), context: r.typed('postings.context', Float32Array, total) };
      for (let t = 0; t + 1 < start.length; t++) checkRows(all.rowids, start[t]!, start[t + 1]!, known);
      return all;
    },
  };
  const docs: Doc[] = new Array<Doc>(n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && rowids[i]! <= rowids[i - 1]!) throw new SnapshotMismatch('stored documents are not in rowid order');
    docs[i] = { rowid: rowids[i]!, id: ids[i]!, owner: owners[i]!, body: null, links: linkCounts[i] ? new Set() : NO_LINKS, terms: null, stored: i };
  }
  let l = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < linkCounts[i]!; k++, l++) {
      const target = linkTargets[l];
      if (target === undefined || target >= n) throw new SnapshotMismatch('a stored link points past the documents');
      docs[i]!.links.add(ids[target]!);
    }
  }
  if (l !== linkTargets.length) throw new SnapshotMismatch('stored links left over');
  return { vocab, docs, lengths, start, postings, nextRowid, bodies };
}

/** Which rowids are a stored document's. */
function knownRowids(rowids: Int32Array, nextRowid: number): Uint8Array {
  const known = new Uint8Array(nextRowid);
  for (const rowid of rowids) {
    if (rowid < 0 || rowid >= nextRowid) throw new SnapshotMismatch('a stored document has a rowid past the next one');
    known[rowid] = 1;
  }
  return known;
}

function checkStarts(start: Int32Array, total: number): void {
  if (start[0] !== 0 || start[start.length - 1] !== total) throw new SnapshotMismatch('the postings do not add up');
  for (let t = 0; t + 1 < start.length; t++) if (start[t + 1]! < start[t]!) throw new SnapshotMismatch('the postings do not add up');
}

/** A term's rows ascending and each a stored document's (termsOf bisects them). */
function checkRows(rowids: Int32Array, from: number, to: number, known: Uint8Array): void {
  for (let i = from; i < to; i++) {
    const rowid = rowids[i]!;
    if (known[rowid] !== 1 || (i > from && rowid <= rowids[i - 1]!)) throw new SnapshotMismatch('a posting is out of order or names no document');
  }
}
