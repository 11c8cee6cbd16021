/**
 * The memory list's full-text search: SQLite FTS5 over title and content, in a private in-memory
 * database so searching never writes to a store file (a nooa store stays exactly as nooa wrote it,
 * and FTS5 tables inside it would need triggers on nooa's own table). Kept current through the
 * Derived pattern: our own writes patch one row; another process's commit reloads it on the next
 * search.
 *
 * Every word the user types must match, as a prefix (`deploy` finds "deployed"); a word that looks
 * like a hex id prefix (4+ characters) also matches memories whose id starts with it.
 */
import { connectionOf, statementOf } from './connection.js';
import Database from 'better-sqlite3';
import type { DerivedIndex } from './derived.js';
import type { StoreReader } from './port.js';
import { jsonField } from './json-sql.js';

interface Row {
  id: string;
  title: string | null;
  content: string;
}

const LOAD_SQL = `SELECT id, ${jsonField('data', '$.title')} AS title, content FROM memories`;
const ROW_SQL = `SELECT id, ${jsonField('data', '$.title')} AS title, content FROM memories WHERE id = ?`;

export class TextSearchIndex implements DerivedIndex {
  private readonly db: Database.Database;

  constructor() {
    this.db = new Database(':memory:');
    this.db.exec(`
      CREATE TABLE doc (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
      CREATE VIRTUAL TABLE fts USING fts5(title, content, tokenize = 'unicode61 remove_diacritics 2');
    `);
  }

  load(store: StoreReader): void {
    const insDoc = this.db.prepare('INSERT INTO doc(id) VALUES (?)');
    const insFts = this.db.prepare('INSERT INTO fts(rowid, title, content) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      this.db.exec('DELETE FROM doc; DELETE FROM fts;');
      for (const r of connectionOf(store).prepare(LOAD_SQL).iterate() as Iterable<Row>) {
        const rowid = Number(insDoc.run(r.id).lastInsertRowid);
        insFts.run(rowid, r.title ?? '', r.content);
      }
    })();
  }

  update(store: StoreReader, id: string): void {
    const r = statementOf(store, ROW_SQL).get(id) as Row | undefined;
    this.db.transaction(() => {
      this.removeRow(id);
      if (!r) return;
      const rowid = Number(this.db.prepare('INSERT INTO doc(id) VALUES (?)').run(id).lastInsertRowid);
      this.db.prepare('INSERT INTO fts(rowid, title, content) VALUES (?, ?, ?)').run(rowid, r.title ?? '', r.content);
    })();
  }

  remove(id: string): void {
    this.removeRow(id);
  }

  private removeRow(id: string): void {
    const doc = this.db.prepare('SELECT rowid FROM doc WHERE id = ?').get(id) as { rowid: number } | undefined;
    if (!doc) return;
    this.db.prepare('DELETE FROM fts WHERE rowid = ?').run(doc.rowid);
    this.db.prepare('DELETE FROM doc WHERE rowid = ?').run(doc.rowid);
  }

  dispose(): void {
    this.db.close();
  }

  /** Ids of memories matching every word (as a prefix), best (bm25) first; id prefixes included. */
  match(words: readonly string[]): string[] {
    const terms = words.map((w) => w.trim()).filter(Boolean);
    if (terms.length === 0) return [];
    // Each word becomes a quoted FTS5 string (so punctuation is never query syntax) with a prefix star.
    const query = terms.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' AND ');
    let ids: string[];
    try {
      ids = (this.db.prepare('SELECT doc.id FROM fts JOIN doc ON doc.rowid = fts.rowid WHERE fts MATCH ? ORDER BY bm25(fts)').all(query) as { id: string }[]).map(
        (r) => r.id,
      );
    } catch {
      ids = []; // a word with no indexable characters (e.g. "!!") matches nothing
    }
    if (terms.length === 1 && /^[0-9a-f]{4,}$/i.test(terms[0]!)) {
      const p = terms[0]!.toLowerCase();
      const byId = (this.db.prepare("SELECT id FROM doc WHERE id >= ? AND id < ? || 'g'").all(p, p) as { id: string }[]).map((r) => r.id);
      ids = [...new Set([...byId, ...ids])];
    }
    return ids;
  }
}
