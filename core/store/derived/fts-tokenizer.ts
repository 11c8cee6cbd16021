/**
 * SQLite FTS5's tokenizer, used as a library: a private in-memory database (never a store file)
 * that splits and, with `porter`, stems text. The keyword index (recall/mnemo/keyword-index.ts)
 * reads each row's terms back through an `fts5vocab` instance table and scores them itself. It
 * lives here because it is SQL, and SQL stays in the store layer.
 */
import Database from 'better-sqlite3';

export class FtsTokenizer {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly occurrences: Database.Statement;
  /** The tokenizer and the SQLite that runs it: stored terms are only reusable under the same pair. */
  readonly signature: string;

  /** `stem`: Porter stemming (`porter unicode61`), else plain `unicode61`; diacritics removed either way. */
  constructor(stem: boolean) {
    this.db = new Database(':memory:');
    const tokenizer = stem ? 'porter unicode61 remove_diacritics 2' : 'unicode61 remove_diacritics 2';
    this.db.exec(`CREATE VIRTUAL TABLE tok USING fts5(body, context, tokenize = '${tokenizer}');
                  CREATE VIRTUAL TABLE tokv USING fts5vocab(tok, 'instance');`);
    this.signature = `${tokenizer}; sqlite ${this.db.prepare('SELECT sqlite_version()').pluck().get() as string}`;
    // Prepared once: a query's few words are tokenized on every recall that misses the stem cache.
    this.insert = this.db.prepare('INSERT INTO tok(rowid, body, context) VALUES (?, ?, ?)');
    this.occurrences = this.db.prepare('SELECT term, doc, col FROM tokv').raw();
  }

  /**
   * Tokenizes the rows and calls `onToken` once per token occurrence, in term order (column 0 =
   * body, 1 = context); the rows are gone again afterwards.
   */
  tokenize(rows: readonly { rowid: number; body: string; context: string }[], onToken: (term: string, rowid: number, column: 0 | 1) => void): void {
    this.db.transaction(() => {
      for (const r of rows) this.insert.run(r.rowid, r.body, r.context);
    })();
    for (const [term, rowid, col] of this.occurrences.iterate() as Iterable<[string, number, string]>) {
      onToken(term, rowid, col === 'body' ? 0 : 1);
    }
    this.db.exec('DELETE FROM tok');
  }

  close(): void {
    this.db.close();
  }
}
