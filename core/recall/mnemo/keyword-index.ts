/**
 * The mnemo profile's BM25 leg: an in-memory SQLite FTS5 index over the live memories, kept in
 * step with the store like the vector index (a Derived index). FTS5 gives tokenisation, Porter
 * stemming and bm25() ranking from a well-kept library, and keeping it in memory means a recall
 * never writes to a store file (a nooa store stays byte-for-byte nooa's).
 *
 * Two columns: `body` (title, content, tags) and `context`, the text of the memories this one is
 * linked to by `precedes` edges in either direction. A reply like "Yes, last Tuesday!" says little
 * by itself; the turn it answers says what it is about. The context column is weighted down
 * (or off) at query time, so the ablation needs no second index. Context is shared only between
 * memories of the same owner.
 */
import Database from 'better-sqlite3';
import type { DerivedIndex } from '../../engine/derived.js';
import type { MemoryStore } from '../../store/store.js';
import { ftsOrQuery } from './query-terms.js';

export interface KeywordHit {
  id: string;
  /** bm25 relevance, larger is better (FTS5 reports it negated). */
  score: number;
}

export interface KeywordSearch {
  terms: readonly string[];
  limit: number;
  /** Weight of the context column relative to the body (0 = body only). */
  contextWeight: number;
  /** Row filter (owner scope); rows it rejects are skipped, not counted. */
  visible?: (id: string, owner: string) => boolean;
}

interface Row {
  rowid: number;
  id: string;
  owner: string;
  body: string;
  /** ids linked by precedes, either direction. */
  links: Set<string>;
}

const CONTEXT_EDGE = 'precedes';

export class KeywordIndex implements DerivedIndex {
  private readonly db: Database.Database;
  private readonly rows = new Map<string, Row>();
  private readonly byRowid = new Map<number, Row>();
  private nextRowid = 1;
  private searchStmt: Database.Statement | undefined;
  private writeStmt: Database.Statement | undefined;

  /** `stem`: Porter stemming (FTS5 `porter unicode61`), else plain `unicode61`. */
  constructor(readonly stem: boolean) {
    this.db = new Database(':memory:');
    const tokenizer = stem ? 'porter unicode61 remove_diacritics 2' : 'unicode61 remove_diacritics 2';
    this.db.exec(`CREATE VIRTUAL TABLE kw USING fts5(body, context, tokenize = '${tokenizer}')`);
  }

  get size(): number {
    return this.rows.size;
  }

  load(store: MemoryStore): void {
    this.db.exec('DELETE FROM kw');
    this.rows.clear();
    this.byRowid.clear();
    const live = store.db
      .prepare('SELECT id, owner, data FROM memories WHERE archived = 0 ORDER BY rowid')
      .all() as { id: string; owner: string; data: string }[];
    for (const r of live) this.setRow(r.id, r.owner, bodyOf(r.data));
    const edges = store.db.prepare('SELECT src, dst FROM memory_edges WHERE type = ?').all(CONTEXT_EDGE) as { src: string; dst: string }[];
    for (const e of edges) this.link(e.src, e.dst);
    this.db.transaction(() => {
      for (const row of this.rows.values()) this.write(row);
    })();
  }

  update(store: MemoryStore, id: string): void {
    const r = store.statement('SELECT id, owner, archived, data FROM memories WHERE id = ?').get(id) as
      | { id: string; owner: string; archived: number; data: string }
      | undefined;
    if (!r || r.archived !== 0) {
      this.remove(id);
      return;
    }
    const before = new Set(this.rows.get(id)?.links ?? []);
    const row = this.setRow(id, r.owner, bodyOf(r.data));
    for (const other of before) this.rows.get(other)?.links.delete(id);
    row.links.clear();
    for (const e of store.edgesFrom([id]).get(id) ?? []) if (e.type === CONTEXT_EDGE) this.link(id, e.target_id);
    for (const e of store.incoming(id)) if (e.type === CONTEXT_EDGE) this.link(e.src, id);
    this.db.transaction(() => {
      this.write(row);
      for (const other of new Set([...before, ...row.links])) {
        const o = this.rows.get(other);
        if (o) this.write(o);
      }
    })();
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.delete(id);
    this.byRowid.delete(row.rowid);
    this.db.prepare('DELETE FROM kw WHERE rowid = ?').run(row.rowid);
    for (const other of row.links) {
      const o = this.rows.get(other);
      if (!o) continue;
      o.links.delete(id);
      this.write(o);
    }
  }

  /** The best `limit` visible rows for the OR of the terms, best first; ties by insertion order. */
  search(q: KeywordSearch): KeywordHit[] {
    if (q.terms.length === 0 || q.limit <= 0) return [];
    const match = ftsOrQuery(q.terms, q.contextWeight > 0 ? undefined : 'body');
    const stmt = (this.searchStmt ??= this.db.prepare('SELECT rowid, bm25(kw, 1.0, ?) AS s FROM kw WHERE kw MATCH ? ORDER BY s, rowid LIMIT ?'));
    const out: KeywordHit[] = [];
    // Over-fetch when a filter may reject rows, growing until enough survive or the index is exhausted.
    for (let fetch = q.visible ? q.limit * 4 : q.limit; ; fetch *= 4) {
      const rows = stmt.all(q.contextWeight, match, fetch) as { rowid: number; s: number }[];
      out.length = 0;
      for (const r of rows) {
        const row = this.byRowid.get(r.rowid);
        if (!row || (q.visible && !q.visible(row.id, row.owner))) continue;
        out.push({ id: row.id, score: -r.s });
        if (out.length === q.limit) return out;
      }
      if (rows.length < fetch) return out;
    }
  }

  dispose(): void {
    this.db.close();
  }

  private setRow(id: string, owner: string, body: string): Row {
    let row = this.rows.get(id);
    if (row) {
      row.owner = owner;
      row.body = body;
      return row;
    }
    row = { rowid: this.nextRowid++, id, owner, body, links: new Set() };
    this.rows.set(id, row);
    this.byRowid.set(row.rowid, row);
    return row;
  }

  private link(a: string, b: string): void {
    const ra = this.rows.get(a);
    const rb = this.rows.get(b);
    // Context never crosses owners: a foreign memory's words must not make this one match.
    if (!ra || !rb || a === b || ra.owner !== rb.owner) return;
    ra.links.add(b);
    rb.links.add(a);
  }

  private write(row: Row): void {
    const context = [...row.links].map((id) => this.rows.get(id)?.body ?? '').join('\n');
    (this.writeStmt ??= this.db.prepare('INSERT OR REPLACE INTO kw(rowid, body, context) VALUES (?, ?, ?)')).run(row.rowid, row.body, context);
  }
}

/** Title, content and tags: what a memory says about itself. */
function bodyOf(data: string): string {
  let m: { title?: unknown; content?: unknown; tags?: unknown };
  try {
    m = JSON.parse(data) as typeof m;
  } catch {
    return '';
  }
  const parts: string[] = [];
  if (typeof m.title === 'string' && m.title) parts.push(m.title);
  if (typeof m.content === 'string') parts.push(m.content);
  if (Array.isArray(m.tags)) parts.push(m.tags.filter((t): t is string => typeof t === 'string').join(' '));
  return parts.join('\n');
}
