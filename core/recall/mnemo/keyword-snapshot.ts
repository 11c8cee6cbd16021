/**
 * The keyword index as snapshot parts: its vocabulary, and per document (in rowid order) its id,
 * owner, text, precedes links and stemmed terms with their counts per column. The terms are what
 * costs to rebuild (FTS5 tokenizing every memory); df, lengths and postings follow from them in
 * a fraction of that and are recomputed on restore, so they cannot disagree with the documents.
 */
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../../store/snapshot-parts.js';
import { NO_LINKS, type Doc } from './keyword-doc.js';

export interface KeywordState {
  vocab: string[];
  /** In rowid order. */
  docs: Doc[];
  nextRowid: number;
}

export function encodeKeywordState(state: KeywordState): SnapshotParts | null {
  const { docs } = state;
  const w = new PartsWriter();
  if (!w.strings('vocab', state.vocab)) return null;
  if (!w.strings('ids', docs.map((d) => d.id)) || !w.strings('owners', docs.map((d) => d.owner)) || !w.strings('bodies', docs.map((d) => d.body))) return null;
  const position = new Map<string, number>();
  docs.forEach((d, i) => position.set(d.id, i));
  const rowids = new Int32Array(docs.length);
  const linkCounts = new Uint32Array(docs.length);
  const termCounts = new Uint32Array(docs.length);
  const lengths = new Uint32Array(docs.length);
  let links = 0;
  let terms = 0;
  docs.forEach((d, i) => {
    rowids[i] = d.rowid;
    linkCounts[i] = d.links.size;
    termCounts[i] = d.terms.ids.length;
    lengths[i] = d.terms.length;
    links += d.links.size;
    terms += d.terms.ids.length;
  });
  const linkTargets = new Uint32Array(links);
  const termIds = new Int32Array(terms);
  const termBody = new Float32Array(terms);
  const termContext = new Float32Array(terms);
  let l = 0;
  let t = 0;
  for (const d of docs) {
    for (const other of d.links) {
      const p = position.get(other);
      if (p === undefined) return null; // a link to a document the index no longer holds: rebuild next time rather than store it
      linkTargets[l++] = p;
    }
    termIds.set(d.terms.ids, t);
    termBody.set(d.terms.body, t);
    termContext.set(d.terms.context, t);
    t += d.terms.ids.length;
  }
  w.typed('rowids', rowids);
  w.typed('links.count', linkCounts);
  w.typed('links.target', linkTargets);
  w.typed('terms.count', termCounts);
  w.typed('terms.length', lengths);
  w.typed('terms.id', termIds);
  w.typed('terms.body', termBody);
  w.typed('terms.context', termContext);
  w.json('meta', { nextRowid: state.nextRowid });
  return w.parts;
}

export function decodeKeywordState(parts: SnapshotParts): KeywordState {
  const r = new PartsReader(parts);
  const vocab = r.strings('vocab');
  const ids = r.strings('ids');
  const n = ids.length;
  const owners = r.strings('owners', n);
  const bodies = r.strings('bodies', n);
  const rowids = r.typed('rowids', Int32Array, n);
  const linkCounts = r.typed('links.count', Uint32Array, n);
  const linkTargets = r.typed('links.target', Uint32Array);
  const termCounts = r.typed('terms.count', Uint32Array, n);
  const lengths = r.typed('terms.length', Uint32Array, n);
  const termIds = r.typed('terms.id', Int32Array);
  const termBody = r.typed('terms.body', Float32Array, termIds.length);
  const termContext = r.typed('terms.context', Float32Array, termIds.length);
  const { nextRowid } = r.json<{ nextRowid: number }>('meta');
  const docs: Doc[] = new Array<Doc>(n);
  let t = 0;
  for (let i = 0; i < n; i++) {
    const c = termCounts[i]!;
    if (t + c > termIds.length) throw new SnapshotMismatch('term counts exceed the stored terms');
    docs[i] = {
      rowid: rowids[i]!,
      id: ids[i]!,
      owner: owners[i]!,
      body: bodies[i]!,
      links: linkCounts[i] ? new Set() : NO_LINKS,
      terms: { ids: termIds.subarray(t, t + c), body: termBody.subarray(t, t + c), context: termContext.subarray(t, t + c), length: lengths[i]! },
    };
    t += c;
  }
  if (t !== termIds.length) throw new SnapshotMismatch('stored terms left over');
  let l = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < linkCounts[i]!; k++, l++) {
      const target = linkTargets[l];
      if (target === undefined || target >= n) throw new SnapshotMismatch('a stored link points past the documents');
      docs[i]!.links.add(ids[target]!);
    }
  }
  if (l !== linkTargets.length) throw new SnapshotMismatch('stored links left over');
  for (const id of termIds) if (id < 0 || id >= vocab.length) throw new SnapshotMismatch('a stored term is not in the vocabulary');
  if (!Number.isInteger(nextRowid) || (n > 0 && nextRowid <= rowids[n - 1]!)) throw new SnapshotMismatch('the next rowid is behind the documents');
  return { vocab, docs, nextRowid };
}
