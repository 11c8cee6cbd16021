/**
 * The evidence search of a PostgreSQL store's beliefs: SQLite's FTS5, with SQLite's tokenizer, over
 * a copy of the deltas' evidence in a private in-memory database of this process. The same index
 * over the same rows gives the same matches and the same BM25 scores as a SQLite store's
 * `mnemo_delta_fts`, which PostgreSQL's own full-text search would not (another tokenizer, no
 * diacritics folded under the 'simple' configuration, another ranking).
 *
 * The copy catches up when it is searched. Deltas are only appended and deleted (an ingest rolled
 * back, a copy's rows), never have their evidence rewritten, and their ids come from an identity
 * sequence that only grows: so the count and the largest id of the deltas with evidence change
 * whenever that set does. Equal: the copy is current. A larger id with exactly the new rows added:
 * they are appended. Anything else: the copy is rebuilt. A search inside a transaction sees the
 * transaction's own deltas, as on SQLite; after a rollback the count or the id no longer match.
 *
 * Can differ from SQLite: after SQLite deletes a delta whose evidence is empty (its trigger sends
 * FTS5 a delete for a row it never indexed) SQLite's row count drifts and its BM25 scores move a
 * little; here they do not. A store whose evidence is large is read in whole at the first search
 * of each process.
 */
import Database from 'better-sqlite3';
import { intOf } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const TOKENIZER = 'unicode61 remove_diacritics 2';
/** Rows read per round trip when the copy is filled. */
const PAGE = 5000;

export class PgEvidenceMirror {
  private db: Database.Database | null = null;
  /** The count and largest id of the deltas with evidence that the copy holds. */
  private held = { n: 0, max: 0 };

  constructor(private readonly conn: PgStoreConnection) {}

  /** Delta ids and BM25 scores (lower is better) of the evidence matching an FTS5 query, best first. */
  search(match: string, limit: number): { id: number; score: number }[] {
    const db = this.current();
    return db.prepare('SELECT rowid AS id, bm25(evidence_fts) AS score FROM evidence_fts WHERE evidence_fts MATCH ? ORDER BY score LIMIT ?').all(match, limit) as { id: number; score: number }[];
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }

  /** Drops the copy (an erase scrubbed evidence in place, which the count and largest id do not show): the next search reads it again. */
  forget(): void {
    this.close();
    this.held = { n: 0, max: 0 };
  }

  private current(): Database.Database {
    const db = this.db ?? this.open();
    const [r] = this.conn.db().query(`SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM ${this.conn.table('mnemo_deltas')} WHERE evidence <> ''`);
    const now = { n: intOf(r!['n'], 'count(*)'), max: intOf(r!['m'], 'max(id)') };
    if (now.n === this.held.n && now.max === this.held.max) return db;
    if (now.max > this.held.max) {
      const added = this.rowsAfter(this.held.max);
      // Only new rows (none of those held deleted): they are appended.
      if (this.held.n + added.length === now.n && added[added.length - 1]?.id === now.max) {
        this.insert(db, added, this.held.n);
        return db;
      }
    }
    db.exec('DELETE FROM evidence_fts');
    this.insert(db, this.rowsAfter(0), 0);
    return db;
  }

  private open(): Database.Database {
    this.db = new Database(':memory:');
    this.db.exec(`CREATE VIRTUAL TABLE evidence_fts USING fts5(evidence, tokenize = '${TOKENIZER}')`);
    return this.db;
  }

  /** The deltas with evidence past an id, in id order, a page per round trip. */
  private rowsAfter(id: number): { id: number; evidence: string }[] {
    const rows: { id: number; evidence: string }[] = [];
    for (let after = id; ; after = rows[rows.length - 1]!.id) {
      const page = this.conn.db().query(`SELECT id, evidence FROM ${this.conn.table('mnemo_deltas')} WHERE id > $1 AND evidence <> '' ORDER BY id LIMIT $2`, [after, PAGE]);
      for (const r of page) rows.push({ id: intOf(r['id'], 'mnemo_deltas.id'), evidence: r['evidence'] as string });
      if (page.length < PAGE) return rows;
    }
  }

  /** Adds rows to the copy; what it holds is then exactly what was read (the next search checks it against the store again). */
  private insert(db: Database.Database, rows: readonly { id: number; evidence: string }[], heldBefore: number): void {
    const insert = db.prepare('INSERT INTO evidence_fts(rowid, evidence) VALUES (?, ?)');
    db.transaction(() => {
      for (const r of rows) insert.run(r.id, r.evidence);
    })();
    this.held = { n: heldBefore + rows.length, max: rows.length ? rows[rows.length - 1]!.id : heldBefore === 0 ? 0 : this.held.max };
  }
}
