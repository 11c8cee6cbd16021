/**
 * The mnemo profile's BM25 leg: an in-memory index over the live memories, kept in step with the
 * store like the vector index (a Derived index), so a recall never writes to a store file.
 *
 * SQLite FTS5 does the text work: its `porter unicode61` tokenizer (a well-kept stemmer) splits
 * and stems every memory, read back through an `fts5vocab` instance table. The scoring is FTS5's
 * own bm25() formula (k1 1.2, b 0.75, idf ln((N − df + 0.5)/(df + 0.5)) floored at 1e-6, column
 * weights applied to term frequencies, length = all columns) computed over posting lists in typed
 * arrays (keyword-bm25.ts): FTS5 scores every matching row through the virtual-table interface,
 * which at 100k memories and common words costs tens of milliseconds; the arrays take a few.
 *
 * Two columns: `body` (title, content, tags) and `context`, the text of the memories this one is
 * linked to by `precedes` edges in either direction. A reply like "Yes, last Tuesday!" says little
 * by itself; the turn it answers says what it is about. The context column is weighted at query
 * time (0 = body only), so the ablation needs no second index. Context is shared only between
 * memories of the same owner.
 *
 * Postings are built in bulk (flat rows per term); memories changed afterwards are scored from
 * their own term lists until enough have changed to make a rebuild worthwhile. Read back from a
 * snapshot, the postings are used as they lie, and a document's term list and text are only
 * made when a change needs them (termsOf, bodyOf; a text is read from the sidecar's file then).
 *
 * This file keeps the documents and the statistics in step with the store; the work is in the
 * files beside it: the searched text (keyword-text.ts), the tokenizing (keyword-tokenize.ts), the
 * postings and term lists (keyword-postings.ts), the scoring (keyword-bm25.ts) and the snapshot
 * (keyword-snapshot.ts).
 */
import type { PersistableIndex } from '../../store/derived/derived.js';
import type { LoadProgress, LoadStep } from '../../store/derived/derived-index.js';
import { FtsTokenizer } from '../../store/derived/fts-tokenizer.js';
import { WordStemCache, byUtf8 } from './word-stems.js';
import type { StoreReader } from '../../store/port/port.js';
import { SnapshotMismatch, type PartSource, type SnapshotParts, type Utf8Run } from '../../store/derived/snapshot-parts.js';
import { scoreBm25, TermBounds, type KeywordHit, type KeywordSearch, type TermRange } from './keyword-bm25.js';
import { NO_LINKS, type Doc, type Postings, type Terms } from './keyword-doc.js';
import { buildPostings, EMPTY_TERMS, NO_POSTINGS, resolveTermsFromPostings, termsInPostings } from './keyword-postings.js';
import { decodeKeywordState, encodeKeywordState, type RestoredKeywordState, type StoredDocs, type StoredPostings, type TermPostings } from './keyword-snapshot.js';
import { bodyFromColumns, bodyOf } from './keyword-text.js';
import { tokenizeTerms, type TokenRow } from './keyword-tokenize.js';
import { edgesOfType } from '../../store/queries/edge-sources.js';

export type { KeywordHit, KeywordSearch } from './keyword-bm25.js';

const CONTEXT_EDGE = 'precedes';
/** Rows tokenized per build step: about a tenth of a second of work at a time. */
const TOKENIZE_CHUNK = 2000;

export class KeywordIndex implements PersistableIndex {
  /** Text, owner and context links: an access changes none of them. */
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  readonly snapshotFormat = 'keyword/2';

  /** FTS5's tokenizer (core/store/derived/fts-tokenizer.ts); the rows come from core/store/sqlite/derived-sources.ts. */
  private readonly tok: FtsTokenizer;
  /** Recent query words' stems (word-stems.ts). */
  private readonly wordStems = new WordStemCache();
  private readonly docs = new Map<string, Doc>();
  /** By rowid (rowids are dense: an array is cheaper to fill than a Map of 100k entries). */
  private byRowid: (Doc | undefined)[] = [];
  /**
   * A snapshot's documents as read, until something needs them as Doc objects (docsNeeded: a
   * change, a rebuild, a snapshot); `docs` and `byRowid` stay empty meanwhile. A search reads the
   * ids and owners of the rows it keeps from these.
   */
  private restoredDocs: StoredDocs | null = null;
  private readonly vocab = new Map<string, number>();
  private df: number[] = [];
  private totalLength = 0;
  private nextRowid = 1;
  /** Bulk postings (terms added since have none), and the rows whose bulk postings are out of date. */
  private postings: Postings = NO_POSTINGS;
  private readonly stale = new Set<number>();
  /** By rowid: 1 when stale (typed arrays keep the posting loop free of hash lookups), and row lengths. */
  private staleMask = new Uint8Array(0);
  private lengths = new Float64Array(0);
  /** Live rows changed since the bulk build (scored from their own term lists). */
  private readonly fresh = new Set<number>();
  private acc = new Float64Array(0);
  /** The texts of the documents read from a snapshot (by Doc.stored), decoded one by one when needed. */
  private storedBodies: Utf8Run | null = null;
  /** The postings of a snapshot read back, a term's read when first needed; null once `postings` holds them all. */
  private storedPostings: StoredPostings | null = null;
  private readonly readTerms = new Map<number, TermPostings>();
  /** Each term's score bound over the bulk postings (keyword-bm25.ts): made again with them. */
  private bounds = new TermBounds();
  /** The store a snapshot was read beside (rebuilt from if a stored text turns out damaged). */
  private source: StoreReader | null = null;

  /** `stem`: Porter stemming (FTS5 `porter unicode61`), else plain `unicode61`. */
  constructor(readonly stem: boolean) {
    this.tok = new FtsTokenizer(stem);
  }

  get size(): number {
    return this.restoredDocs ? this.restoredDocs.length : this.docs.size;
  }

  /** Rows retokenized since the postings were last built (scored from their own term lists until the next build). */
  get changedSinceBuild(): number {
    return this.fresh.size;
  }

  load(store: StoreReader, progress?: LoadProgress): void {
    for (const step of this.loadSteps(store)) progress?.(step.done, step.total);
  }

  /** Reads every row first, then tokenizes them a chunk per step (tokenizing is most of a build). */
  *loadSteps(store: StoreReader): Generator<LoadStep, void> {
    this.reset();
    const live = store.queries.liveBodies();
    // SQLite's json_extract reads the three fields in C: about half the cost of JSON.parse on
    // rows that carry 64-entry access rings.
    for (const r of live) {
      if (!r.readable) store.warn(`sql-json:${r.id}`, `memory ${r.id}: SQLite cannot read its JSON data (nested deeper than 1000, or malformed); searched by its content only`);
      this.setDoc(r.id, r.owner, bodyFromColumns(r));
    }
    const edges = edgesOfType(store, CONTEXT_EDGE);
    for (const e of edges) this.link(e.src, e.dst);
    const docs = [...this.docs.values()];
    yield { done: 0, total: docs.length };
    // Rows tokenize independently, so chunks give the same terms as one batch.
    const terms = new Map<number, Terms>();
    for (let at = 0; at < docs.length; at += TOKENIZE_CHUNK) {
      const chunk = docs.slice(at, at + TOKENIZE_CHUNK).map((d) => ({ rowid: d.rowid, body: this.bodyOf(d), context: this.contextOf(d) }));
      for (const [rowid, t] of this.tokenize(chunk)) terms.set(rowid, t);
      yield { done: Math.min(at + TOKENIZE_CHUNK, docs.length), total: docs.length };
    }
    for (const d of docs) this.account(d, terms.get(d.rowid) ?? EMPTY_TERMS);
    this.build();
  }

  snapshotConditions(): string {
    return JSON.stringify({ stem: this.stem, tokenizer: this.tok.signature });
  }

  saveSnapshot(): SnapshotParts | null {
    this.docsNeeded();
    this.readAllPostings();
    // The stored postings must be exact (no stale rows, none scored from their own lists), and the
    // build drops the terms of removed documents.
    if (this.fresh.size > 0 || this.stale.size > 0) this.build();
    const docs = [...this.docs.values()].sort((a, b) => a.rowid - b.rowid);
    const lengths = Uint32Array.from(docs, (d) => this.lengths[d.rowid]!);
    // Terms met since the postings were built are a query's words (a document's would have made it
    // fresh): no document holds them, and what someone searched for is not written beside the store.
    const vocab = [...this.vocab.keys()].slice(0, this.postings.start.length - 1);
    return encodeKeywordState({ vocab, docs, lengths, postings: this.postings, nextRowid: this.nextRowid }, (d) => this.bodyOf(d));
  }

  /** Takes the documents, their links and the postings as stored; df and the total length follow from them. */
  restoreSnapshot(parts: PartSource, store: StoreReader): void {
    this.adopt(decodeKeywordState(parts));
    this.source = store;
  }

  private adopt(state: RestoredKeywordState): void {
    this.reset();
    for (const term of state.vocab) this.vocab.set(term, this.vocab.size);
    this.ensureRowCapacity(state.nextRowid);
    const { rowids } = state.docs;
    for (let i = 0; i < rowids.length; i++) {
      this.lengths[rowids[i]!] = state.lengths[i]!;
      this.totalLength += state.lengths[i]!;
    }
    this.restoredDocs = state.docs;
    const { start } = state;
    this.df = Array.from({ length: this.vocab.size }, (_, t) => start[t + 1]! - start[t]!);
    // Only where each term starts: a term's rows are read when a query first asks for it.
    this.postings = { ...NO_POSTINGS, start };
    this.storedPostings = state.postings;
    this.bounds = new TermBounds();
    this.storedBodies = state.bodies;
    this.nextRowid = state.nextRowid;
  }

  /** Doc objects for a snapshot's documents, now (what reading one back used to make up front). */
  private docsNeeded(): void {
    const stored = this.restoredDocs;
    if (!stored) return;
    this.restoredDocs = null;
    this.byRowid = new Array<Doc | undefined>(this.nextRowid);
    for (const d of stored.docs()) {
      this.docs.set(d.id, d);
      this.byRowid[d.rowid] = d;
    }
  }

  private reset(): void {
    this.docs.clear();
    this.byRowid = [];
    this.restoredDocs = null;
    this.vocab.clear();
    this.df = [];
    this.totalLength = 0;
    this.stale.clear();
    this.staleMask = new Uint8Array(0);
    this.lengths = new Float64Array(0);
    this.fresh.clear();
    this.postings = NO_POSTINGS;
    this.storedPostings = null;
    this.readTerms.clear();
    this.bounds = new TermBounds();
    this.storedBodies = null;
    this.source = null;
  }

  update(store: StoreReader, id: string): void {
    this.recovering(() => this.updateNow(store, id));
  }

  /**
   * Only edges at `id` changed, not its row: its text and owner are as this index holds them, so
   * only its context links are read (an erase deletes the edges of thousands of neighbours, and
   * reading each one's row was most of the patch). Links that moved take the full update.
   */
  updateEdges(store: StoreReader, id: string): void {
    this.recovering(() => {
      this.docsNeeded();
      const existing = this.docs.get(id);
      if (existing && sameSet(existing.links, this.linkable(id, existing.owner, this.contextLinks(store, id)))) return;
      this.updateNow(store, id);
    });
  }

  remove(id: string): void {
    this.recovering(() => this.removeNow(id));
  }

  /**
   * Runs a patch or a search; when what it reads of the snapshot (a document's text, a term's
   * postings: read only when first needed) turns out damaged, rebuilds the index from the store,
   * which holds every text, and runs it again.
   */
  private recovering<R>(run: () => R): R {
    try {
      return run();
    } catch (err) {
      if (!(err instanceof SnapshotMismatch) || !this.source) throw err;
      this.load(this.source);
      return run();
    }
  }

  /** Every term's postings, now (PersistableIndex.warm). */
  warm(): void {
    this.recovering(() => this.readAllPostings());
  }

  /** Every term's postings (a change's term list, a rebuild, a snapshot need them all). */
  private readAllPostings(): void {
    if (!this.storedPostings) return;
    this.postings = this.storedPostings.all();
    this.storedPostings = null;
    this.readTerms.clear();
  }

  private updateNow(store: StoreReader, id: string): void {
    this.docsNeeded();
    const r = store.queries.sourceRow(id);
    if (!r || r.archived !== 0) {
      this.remove(id);
      return;
    }
    const body = bodyOf(r.data);
    const linked = this.contextLinks(store, id);
    const existing = this.docs.get(id);
    // Most upserts are accesses (every recall logs one per result): strength and counters move,
    // the text does not. Retokenizing those would make each recall pay for the rows it returned,
    // and mark them fresh until the postings are rebuilt; so only a change of text, owner or
    // context links reaches the tokenizer.
    if (existing && existing.owner === r.owner && this.bodyOf(existing) === body && sameSet(existing.links, this.linkable(id, r.owner, linked))) return;
    const before = new Set(existing?.links ?? []);
    const doc = this.setDoc(id, r.owner, body);
    for (const other of before) this.docs.get(other)?.links.delete(id);
    doc.links.clear();
    for (const other of linked) this.link(id, other);
    this.retokenize([doc, ...[...new Set([...before, ...doc.links])].map((o) => this.docs.get(o)).filter((d): d is Doc => d !== undefined)]);
  }

  private removeNow(id: string): void {
    this.docsNeeded();
    const doc = this.docs.get(id);
    if (!doc) return;
    this.account(doc, EMPTY_TERMS);
    this.docs.delete(id);
    this.byRowid[doc.rowid] = undefined;
    this.markStale(doc.rowid);
    this.fresh.delete(doc.rowid);
    const neighbours: Doc[] = [];
    for (const other of doc.links) {
      const o = this.docs.get(other);
      if (!o) continue;
      o.links.delete(id);
      neighbours.push(o);
    }
    this.retokenize(neighbours);
  }

  /** The best `limit` visible rows for the OR of the terms, best first; ties by insertion order. */
  search(q: KeywordSearch): KeywordHit[] {
    return this.recovering(() => this.searchNow(q));
  }

  private searchNow(q: KeywordSearch): KeywordHit[] {
    if (q.terms.length === 0 || q.limit <= 0 || this.size === 0) return [];
    const stems = this.queryStems(q.terms);
    if (this.acc.length < this.nextRowid) this.acc = new Float64Array(Math.max(1024, this.nextRowid * 2));
    const stored = this.restoredDocs;
    const docAt = (rowid: number) => this.byRowid[rowid]!;
    const index = {
      docCount: this.size,
      totalLength: this.totalLength,
      df: this.df,
      lengths: this.lengths,
      staleMask: this.staleMask,
      postedTerms: this.postings.start.length - 1,
      postingsOf: (term: number) => this.postingsOf(term),
      fresh: this.fresh,
      freshTerms: (rowid: number) => docAt(rowid).terms!, // fresh rows were retokenized here
      idOf: stored ? (rowid: number) => stored.ids.get(stored.at(rowid)) : (rowid: number) => docAt(rowid).id,
      ownerOf: stored ? (rowid: number) => stored.owners.shared(stored.at(rowid)) : (rowid: number) => docAt(rowid).owner,
    };
    return scoreBm25(index, stems, q, this.acc, this.bounds);
  }

  dispose(): void {
    this.tok.close();
  }

  // ---------------------------------------------------------------- internals

  private setDoc(id: string, owner: string, body: string): Doc {
    let doc = this.docs.get(id);
    if (doc) {
      doc.owner = owner;
      doc.body = body;
      return doc;
    }
    doc = { rowid: this.nextRowid++, id, owner, body, links: NO_LINKS, terms: EMPTY_TERMS };
    this.docs.set(id, doc);
    this.byRowid[doc.rowid] = doc;
    return doc;
  }

  private link(a: string, b: string): void {
    const da = this.docs.get(a);
    const db = this.docs.get(b);
    // Context never crosses owners: a foreign memory's words must not make this one match.
    if (!da || !db || a === b || da.owner !== db.owner) return;
    if (da.links === NO_LINKS) da.links = new Set();
    if (db.links === NO_LINKS) db.links = new Set();
    da.links.add(b);
    db.links.add(a);
  }

  /** The memories `id` shares a context edge with, either way. */
  private contextLinks(store: StoreReader, id: string): string[] {
    const out = (store.edgesFrom([id]).get(id) ?? []).filter((e) => e.type === CONTEXT_EDGE).map((e) => e.target_id);
    const into = store.incoming(id).filter((e) => e.type === CONTEXT_EDGE).map((e) => e.src);
    return [...out, ...into];
  }

  /** The ids among `linked` that link() would join to a memory of `owner` (the same rule). */
  private linkable(id: string, owner: string, linked: readonly string[]): Set<string> {
    return new Set(linked.filter((other) => other !== id && this.docs.get(other)?.owner === owner));
  }

  private contextOf(doc: Doc): string {
    return [...doc.links]
      .map((id) => {
        const other = this.docs.get(id);
        return other ? this.bodyOf(other) : '';
      })
      .join('\n');
  }

  /** A document's text (read from the snapshot's bytes the first time, for one read back). */
  private bodyOf(doc: Doc): string {
    if (doc.body === null) doc.body = this.storedBodies?.get(doc.stored!) ?? '';
    return doc.body;
  }

  /** A term's bulk postings: entries [from, to) of the arrays (read from the snapshot the first time, while the rest are not). */
  private postingsOf(term: number): TermRange {
    if (this.storedPostings) {
      let read = this.readTerms.get(term);
      if (!read) this.readTerms.set(term, (read = this.storedPostings.term(term)));
      return { ...read, from: 0, to: read.rowids.length };
    }
    const p = this.postings;
    return { rowids: p.rowids, body: p.body, context: p.context, from: p.start[term]!, to: p.start[term + 1]! };
  }

  /**
   * A document's terms; for one read from a snapshot, found in the bulk postings (where it is
   * exact until it changes: a changed document gets its own list and its rows there go stale).
   */
  private termsOf(doc: Doc | undefined): Terms {
    if (!doc) return EMPTY_TERMS;
    if (doc.terms) return doc.terms;
    this.readAllPostings();
    doc.terms = termsInPostings(this.postings, doc.rowid, this.lengths[doc.rowid]!);
    return doc.terms;
  }

  /** Every document's terms at once (a rebuild of the postings needs them all): one pass over the postings. */
  private resolveAllTerms(): void {
    resolveTermsFromPostings(this.docs, this.nextRowid, this.lengths, () => {
      this.readAllPostings();
      return this.postings;
    });
  }

  /** Replaces a document's terms in the statistics (df, total length). */
  private account(doc: Doc, terms: Terms): void {
    const old = this.termsOf(doc);
    for (const t of old.ids) this.df[t] = (this.df[t] ?? 1) - 1;
    this.totalLength -= old.length;
    doc.terms = terms;
    for (const t of terms.ids) this.df[t] = (this.df[t] ?? 0) + 1;
    this.totalLength += terms.length;
    this.ensureRowCapacity(doc.rowid);
    this.lengths[doc.rowid] = terms.length;
  }

  private ensureRowCapacity(rowid: number): void {
    if (rowid < this.lengths.length) return;
    const size = Math.max(1024, (rowid + 1) * 2);
    const lengths = new Float64Array(size);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const mask = new Uint8Array(size);
    mask.set(this.staleMask);
    this.staleMask = mask;
  }

  private markStale(rowid: number): void {
    this.stale.add(rowid);
    this.ensureRowCapacity(rowid);
    this.staleMask[rowid] = 1;
  }

  private retokenize(docs: readonly Doc[]): void {
    if (docs.length === 0) return;
    const terms = this.tokenize(docs.map((d) => ({ rowid: d.rowid, body: this.bodyOf(d), context: this.contextOf(d) })));
    for (const d of docs) {
      this.account(d, terms.get(d.rowid) ?? EMPTY_TERMS);
      this.markStale(d.rowid);
      this.fresh.add(d.rowid);
    }
    if (this.fresh.size > Math.max(256, this.docs.size / 20)) this.build();
  }

  /** Each row's stemmed terms per column (keyword-tokenize.ts), new terms joining the vocabulary. */
  private tokenize(rows: readonly TokenRow[]): Map<number, Terms> {
    return tokenizeTerms(this.tok, rows, (term) => this.termId(term));
  }

  private termId(term: string): number {
    let id = this.vocab.get(term);
    if (id === undefined) {
      id = this.vocab.size;
      this.vocab.set(term, id);
    }
    return id;
  }

  /**
   * The query words as the index's tokenizer stems them, distinct: each word's term ids ascending,
   * word after word, as one run of the tokenizer over the words (one row each) gave them. A term
   * not seen before joins the vocabulary, in the tokenizer's term order.
   */
  private queryStems(words: readonly string[]): number[] {
    const stems = this.wordStems.stemsOf(words, (missing) => this.stemWords(missing));
    for (const term of [...new Set(stems.flat())].sort(byUtf8)) this.termId(term);
    const out: number[] = [];
    for (const list of stems) for (const id of list.map((t) => this.termId(t)).sort((a, b) => a - b)) if (!out.includes(id)) out.push(id);
    return out;
  }

  /** Each word's distinct stems, in the tokenizer's term order. */
  private stemWords(words: readonly string[]): string[][] {
    const out = words.map((): string[] => []);
    this.tok.tokenize(
      words.map((w, i) => ({ rowid: i + 1, body: w, context: '' })),
      (term, rowid) => {
        const list = out[rowid - 1]!;
        if (list[list.length - 1] !== term) list.push(term);
      },
    );
    return out;
  }

  /** Bulk postings from every live document's terms. */
  private build(): void {
    this.docsNeeded();
    this.resolveAllTerms();
    // Documents in rowid order, so each term's rows ascend (termsOf bisects them).
    const docs = [...this.docs.values()].sort((a, b) => a.rowid - b.rowid);
    this.dropUnheldTerms(docs);
    this.postings = buildPostings(docs, this.vocab.size);
    this.storedPostings = null;
    this.readTerms.clear();
    this.bounds = new TermBounds();
    for (const rowid of this.stale) this.staleMask[rowid] = 0;
    this.stale.clear();
    this.fresh.clear();
  }

  /**
   * Renumbers the vocabulary to the terms some document holds: a removed document's words (an
   * erased memory's among them) and a query's go, so a snapshot never carries them and the
   * vocabulary does not grow with every word ever searched. Term ids keep their order.
   */
  private dropUnheldTerms(docs: readonly Doc[]): void {
    const held = new Int32Array(this.vocab.size);
    for (const d of docs) for (const t of d.terms!.ids) held[t]!++;
    const renumbered = new Int32Array(this.vocab.size).fill(-1);
    let n = 0;
    for (let t = 0; t < held.length; t++) if (held[t]! > 0) renumbered[t] = n++;
    if (n === this.vocab.size) return;
    const terms = [...this.vocab.keys()];
    this.vocab.clear();
    this.df = [];
    for (let t = 0; t < terms.length; t++) {
      if (renumbered[t]! < 0) continue;
      this.vocab.set(terms[t]!, renumbered[t]!);
      this.df.push(held[t]!);
    }
    for (const d of docs) if (d.terms!.ids.length > 0) d.terms!.ids = d.terms!.ids.map((t) => renumbered[t]!);
  }
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
