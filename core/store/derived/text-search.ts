/**
 * The memory list's full-text search: SQLite FTS5 over title and content. It lives in the index
 * sidecar beside the store (index-sidecar.ts) as real tables, so it survives between opens and
 * between processes: on load, it is patched with what the change feed names since the position it
 * recorded, and rebuilt only when that is unknown. A store file is never written for it (a nooa
 * store stays exactly as nooa wrote it, and FTS5 tables inside it would need triggers on nooa's own
 * table). Without a writable sidecar (a read-only or `:memory:` store, a read-only directory,
 * snapshots off) it lives in a private in-memory database and is rebuilt on each open, as before.
 *
 * Kept current through the Derived pattern: our own writes patch one row, another process's commit
 * reloads or patches it on the next search. A patch reads its row inside the sidecar's write lock,
 * so two processes patching the same row leave the later read in place.
 *
 * Every word the user types must match, as a prefix (`deploy` finds "deployed"); a word that looks
 * like a hex id prefix (4+ characters) also matches memories whose id starts with it.
 *
 * It reads the memories' text through a TextRows of the store's adapter (SQLite's by default), so
 * the same index serves a PostgreSQL store (pg/pg-text-rows.ts) with the same matches.
 */
import Database from 'better-sqlite3';
import { skipsPatch, type SidecarResidentIndex } from './derived-index.js';
import type { IndexSidecar } from './index-sidecar.js';
import type { FeedPosition, StoreReader } from '../port/port.js';
import { changeKindOf } from '../port/feed-position.js';
import type { TextRows } from '../port/source-rows.js';

const NAME = 'memory.textSearch';
const FORMAT = 'text-search/1';
const TOKENIZER = 'unicode61 remove_diacritics 2';
/** More changes than this since the recorded position: rebuilding is cheaper than patching. */
const PATCH_LIMIT = 20_000;

export class TextSearchIndex implements SidecarResidentIndex {
  /** Title, content and tags come from the row alone, and an access changes none of them. */
  readonly readsNoEdges = true;
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  private readonly db: Database.Database;
  /** The sidecar the tables live in; null when they live in a private in-memory database. */
  private readonly sidecar: IndexSidecar | null;
  private readonly conditions: string;
  /** The store it follows (patches re-read its rows). */
  private store: StoreReader | null = null;
  /** A patch failed (the shared sidecar stayed locked past the busy timeout): rebuild before the next search. */
  private missedPatch = false;

  constructor(
    sidecar: IndexSidecar | null,
    private readonly rowsOf: (store: StoreReader) => TextRows,
  ) {
    this.sidecar = sidecar?.writable ? sidecar : null;
    this.db = this.sidecar ? this.sidecar.connection() : new Database(':memory:');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS text_doc (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
      CREATE VIRTUAL TABLE IF NOT EXISTS text_fts USING fts5(title, content, tokenize = '${TOKENIZER}');
    `);
    this.conditions = JSON.stringify({ tokenizer: TOKENIZER, sqlite: this.db.prepare('SELECT sqlite_version()').pluck().get() });
  }

  load(store: StoreReader): void {
    this.store = store;
    this.missedPatch = false;
    const position = this.sidecar ? store.feedPosition() : null;
    if (position && this.catchUpFromRecorded(store, position)) return;
    this.rebuild(store);
    if (position) this.sidecar?.recordPosition(NAME, { format: FORMAT, conditions: this.conditions, position }, store.clock.now(), { force: true });
    else this.sidecar?.forget(NAME);
  }

  update(store: StoreReader, id: string): void {
    this.store = store;
    this.safely(() => this.patch(store, id));
  }

  remove(id: string): void {
    this.safely(() => this.removeRow(id));
  }

  /**
   * Patches run inside the store's own writes (as its change listeners): a failure here must not
   * fail the caller's write. The list search is rebuilt before its next use instead.
   */
  private safely(fn: () => void): void {
    try {
      this.write(fn);
    } catch (err) {
      if (!this.store) throw err;
      this.store.warn('text-search-patch', `the list's text search could not be updated (${(err as Error).message}); rebuilding it`);
      this.missedPatch = true;
    }
  }

  recordPosition(position: FeedPosition, now: number): void {
    if (this.missedPatch) return; // the tables miss a change: the position they had stays, so the next open patches it
    this.sidecar?.recordPosition(NAME, { format: FORMAT, conditions: this.conditions, position }, now);
  }

  dispose(): void {
    if (!this.sidecar) this.db.close(); // the sidecar's connection closes with the sidecar
  }

  /** Ids of memories matching every word (as a prefix), best (bm25) first; id prefixes included. */
  match(words: readonly string[]): string[] {
    if (this.missedPatch && this.store) {
      this.missedPatch = false;
      this.rebuild(this.store);
    }
    const terms = words.map((w) => w.trim()).filter(Boolean);
    if (terms.length === 0) return [];
    // Each word becomes a quoted FTS5 string (so punctuation is never query syntax) with a prefix star.
    const query = terms.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' AND ');
    let ids: string[];
    try {
      // Ties in bm25 go by id, not by rowid: a patched index gives changed rows new rowids, and the
      // list must read the same after a catch-up as after a rebuild.
      ids = (
        this.db.prepare('SELECT text_doc.id FROM text_fts JOIN text_doc ON text_doc.rowid = text_fts.rowid WHERE text_fts MATCH ? ORDER BY bm25(text_fts), text_doc.id').all(query) as { id: string }[]
      ).map((r) => r.id);
    } catch {
      ids = []; // a word with no indexable characters (e.g. "!!") matches nothing
    }
    if (terms.length === 1 && /^[0-9a-f]{4,}$/i.test(terms[0]!)) {
      const p = terms[0]!.toLowerCase();
      const byId = (this.db.prepare("SELECT id FROM text_doc WHERE id >= ? AND id < ? || 'g'").all(p, p) as { id: string }[]).map((r) => r.id);
      ids = [...new Set([...byId, ...ids])];
    }
    return ids;
  }

  // ---------------------------------------------------------------- internals

  /** Patches the persisted tables from the position they recorded; false when that cannot be done. */
  private catchUpFromRecorded(store: StoreReader, now: FeedPosition): boolean {
    const header = this.sidecar!.header(NAME);
    if (!header || header.format !== FORMAT || header.conditions !== this.conditions || header.position.epoch !== now.epoch || header.position.seq > now.seq) return false;
    const changes = store.changedSince(header.position, PATCH_LIMIT);
    if (!changes) return false;
    this.write(() => {
      for (const id of changes.deletes) this.removeRow(id);
      for (const id of changes.upserts) if (!skipsPatch(this, changeKindOf(changes, id))) this.patch(store, id);
    });
    this.sidecar!.recordPosition(NAME, { format: FORMAT, conditions: this.conditions, position: changes.position }, store.clock.now());
    return true;
  }

  private rebuild(store: StoreReader): void {
    const insDoc = this.db.prepare('INSERT INTO text_doc(id) VALUES (?)');
    const insFts = this.db.prepare('INSERT INTO text_fts(rowid, title, content) VALUES (?, ?, ?)');
    this.write(() => {
      this.db.exec('DELETE FROM text_doc; DELETE FROM text_fts;');
      for (const r of this.rowsOf(store).all()) {
        const rowid = Number(insDoc.run(r.id).lastInsertRowid);
        insFts.run(rowid, r.title ?? '', r.content);
      }
    });
  }

  /** Re-reads one row (inside the write lock) and rewrites it when its text changed. */
  private patch(store: StoreReader, id: string): void {
    const r = this.rowsOf(store).one(id);
    const doc = this.db.prepare('SELECT rowid FROM text_doc WHERE id = ?').get(id) as { rowid: number } | undefined;
    if (doc && r) {
      // Most upserts are accesses (every recall logs them): the text is unchanged, nothing to write.
      const cur = this.db.prepare('SELECT title, content FROM text_fts WHERE rowid = ?').get(doc.rowid) as { title: string; content: string } | undefined;
      if (cur && cur.title === (r.title ?? '') && cur.content === r.content) return;
    }
    this.removeRow(id);
    if (!r) return;
    const rowid = Number(this.db.prepare('INSERT INTO text_doc(id) VALUES (?)').run(id).lastInsertRowid);
    this.db.prepare('INSERT INTO text_fts(rowid, title, content) VALUES (?, ?, ?)').run(rowid, r.title ?? '', r.content);
  }

  private removeRow(id: string): void {
    const doc = this.db.prepare('SELECT rowid FROM text_doc WHERE id = ?').get(id) as { rowid: number } | undefined;
    if (!doc) return;
    this.db.prepare('DELETE FROM text_fts WHERE rowid = ?').run(doc.rowid);
    this.db.prepare('DELETE FROM text_doc WHERE rowid = ?').run(doc.rowid);
  }

  /** One write transaction (IMMEDIATE in the shared sidecar, so a read inside it is not overtaken by another writer). */
  private write(fn: () => void): void {
    if (this.db.inTransaction) return fn();
    const tx = this.db.transaction(fn);
    if (this.sidecar) tx.immediate();
    else tx();
  }
}

/**
 * The list's full-text search over a store: kept in `sidecar` when the store says its change feed
 * can catch it up there (StoreReader.textRows), else in memory and rebuilt on each load.
 */
export function newTextSearch(store: StoreReader, sidecar: IndexSidecar | null): TextSearchIndex {
  const { sidecarKept } = store.textRows();
  return new TextSearchIndex(sidecarKept ? sidecar : null, (s) => s.textRows().rows);
}
