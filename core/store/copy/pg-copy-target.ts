/**
 * A PostgreSQL schema as the target of `mnemo copy`: each batch is one INSERT … SELECT FROM
 * unnest(…) (one array per column: far fewer parameters for the server to parse than a row of
 * placeholders per row) and its progress row, in one transaction; the secondary indexes and the
 * sequences are set, and the change feed added (pg-feed-ddl.ts), when the rows are in.
 */
import { MNEMO_SCHEMA_VERSION } from '../sqlite/migrations.js';
import { classOf, copyColumns, type TableSpec } from './store-tables.js';
import { decodeProgress, encodeProgress, PROGRESS_TABLE, type CopyRow, type CopyTarget, type SourceFacts, type TableProgress, type TargetState } from './copy-endpoint.js';
import { PgStoreConnection } from '../pg/pg-store-connection.js';
import { pgFeedDdl } from '../pg/pg-feed-ddl.js';
import { identityColumn, PG_STORE_TABLE, pgIndexDdl, pgStoreDdl } from '../pg/pg-schema.js';
import { ident, type PgStoreUrl } from '../pg/pg-url.js';
import { PG_ARRAY_TYPES, toPgText } from '../pg/pg-values.js';

const TABLE_KEY = 'table:';

export class PgCopyTarget implements CopyTarget {
  private readonly conn: PgStoreConnection;
  private bulk = false;

  constructor(url: PgStoreUrl) {
    this.conn = new PgStoreConnection(url);
  }

  get shown(): string {
    return this.conn.shown;
  }

  state(): TargetState {
    const present = this.conn.tablesPresent();
    if (present.size === 0) return { kind: 'empty' };
    if (!present.has(PROGRESS_TABLE)) return { kind: 'store' };
    const progress = new Map<string, TableProgress>();
    let signature = '';
    for (const r of this.conn.db().query<{ name: string; value: string }>(`SELECT name, value FROM ${this.conn.table(PROGRESS_TABLE)}`)) {
      if (r.name === 'source') signature = r.value;
      else if (r.name.startsWith(TABLE_KEY)) progress.set(r.name.slice(TABLE_KEY.length), decodeProgress(r.value));
    }
    return { kind: 'partial', signature, progress };
  }

  prepare(facts: SourceFacts): void {
    const db = this.conn.db();
    this.conn.forBulkWrites();
    db.transaction(() => {
      for (const sql of pgStoreDdl(this.conn.url.schema)) db.query(sql);
      const put = (key: string, value: string) => db.query(`INSERT INTO ${this.conn.table(PG_STORE_TABLE)}(key, value) VALUES ($1, $2)`, [key, value]);
      put('nooa_user_version', String(facts.nooaVersion));
      put('mnemo_schema_version', String(MNEMO_SCHEMA_VERSION));
      put('has_mnemo', facts.hasMnemo ? '1' : '0');
      db.query(`CREATE TABLE ${this.conn.table(PROGRESS_TABLE)} (name text COLLATE "C" PRIMARY KEY, value text NOT NULL)`);
      db.query(`INSERT INTO ${this.conn.table(PROGRESS_TABLE)}(name, value) VALUES ('source', $1)`, [facts.signature]);
    });
  }

  writeBatch(spec: TableSpec, rows: CopyRow[], progress: TableProgress): void {
    if (!this.bulk) {
      this.conn.forBulkWrites();
      this.bulk = true;
    }
    const db = this.conn.db();
    const cols = copyColumns(spec);
    const arrays = cols.map((c, i) => {
      const cls = classOf(spec, c);
      return rows.map((r) => toPgText(r[i]!, cls));
    });
    const unnest = cols.map((c, i) => `$${i + 1}::${PG_ARRAY_TYPES[classOf(spec, c)]}`).join(', ');
    db.transaction(() => {
      db.query(`INSERT INTO ${this.conn.table(spec.name)}(${cols.map(ident).join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
      db.query(
        `INSERT INTO ${this.conn.table(PROGRESS_TABLE)}(name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [TABLE_KEY + spec.name, encodeProgress(progress)],
      );
    });
  }

  finish(facts: SourceFacts, tables: readonly TableSpec[]): void {
    const db = this.conn.db();
    db.transaction(() => {
      for (const sql of pgIndexDdl(this.conn.url.schema)) db.query(sql);
      for (const t of tables) {
        const column = identityColumn(t);
        if (!column) continue;
        // The next number handed out follows the source's: the feed's is never reused (AUTOINCREMENT), the rest follow the largest.
        const floor = t.autoincrement ? facts.feedSequence : null;
        db.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), greatest($3::bigint, max(${ident(column)}))) FROM ${this.conn.table(t.name)} HAVING greatest($3::bigint, max(${ident(column)})) IS NOT NULL`,
          [this.conn.table(t.name), column, floor === null ? null : floor.toString()],
        );
      }
      // The change feed's triggers go on once the rows are in: a copied row is not a change.
      for (const sql of pgFeedDdl(this.conn.url.schema)) db.query(sql);
      db.query(`DROP TABLE ${this.conn.table(PROGRESS_TABLE)}`);
    });
  }

  close(): void {
    this.conn.close();
  }
}
