/**
 * A SQLite file as the target of a copy. The schema is made by the same code that makes every
 * store (nooa's DDL, then Mnemo's migrations when the source has Mnemo's tables), so nooa opens the
 * result as it opens any store. While rows arrive, the change feed's triggers are set aside (their
 * SQL kept in the progress table): the copied feed already holds every change, and a trigger would
 * log each copied row again; so are the secondary indexes, built once at the end. `finish` puts them back, indexes the deltas' evidence, sets the feed's
 * sequence to the source's, and drops the progress table, in one transaction.
 */
import { existsSync, statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { MnemoError } from '../../errors.js';
import { migrateMnemo, migrateNooa } from '../sqlite/migrations.js';
import { connect } from '../sqlite/sqlite.js';
import { copyColumns, type TableSpec } from './store-tables.js';
import { decodeProgress, encodeProgress, PROGRESS_TABLE, type CopyRow, type CopyTarget, type SourceFacts, type TableProgress, type TargetState } from './copy-endpoint.js';

const TABLE_KEY = 'table:';

function forSqlite(row: CopyRow): unknown[] {
  return row.map((v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
}

export class SqliteCopyTarget implements CopyTarget {
  private db: Database.Database | null = null;

  constructor(private readonly path: string) {}

  get shown(): string {
    return this.path;
  }

  private conn(create = false): Database.Database {
    // NORMAL, not FULL: in WAL a crash may lose the last commits, never a half of one, and each
    // batch commits with its progress row, so a resume starts exactly after what survived.
    this.db ??= connect(this.path, { create, synchronous: 'NORMAL' });
    return this.db;
  }

  state(): TargetState {
    if (!existsSync(this.path) || statSync(this.path).size === 0) return { kind: 'empty' };
    const db = this.conn();
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    if (tables.length === 0) return { kind: 'empty' };
    if (!tables.includes(PROGRESS_TABLE)) return { kind: 'store' };
    const rows = db.prepare(`SELECT name, value FROM ${PROGRESS_TABLE}`).all() as { name: string; value: string }[];
    const progress = new Map<string, TableProgress>();
    let signature = '';
    for (const r of rows) {
      if (r.name === 'source') signature = r.value;
      else if (r.name.startsWith(TABLE_KEY)) progress.set(r.name.slice(TABLE_KEY.length), decodeProgress(r.value));
    }
    return { kind: 'partial', signature, progress };
  }

  prepare(facts: SourceFacts, tables: readonly TableSpec[]): void {
    const db = this.conn(true);
    db.transaction(() => {
      migrateNooa(db, this.path);
      // The instant only fills meta rows that the copied mnemo_meta replaces.
      if (facts.hasMnemo) migrateMnemo(db, this.path, 'mnemo', 0);
      for (const t of tables) db.prepare(`DELETE FROM ${t.name}`).run();
      db.exec(`CREATE TABLE ${PROGRESS_TABLE} (name TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      const put = db.prepare(`INSERT INTO ${PROGRESS_TABLE}(name, value) VALUES (?, ?)`);
      put.run('source', facts.signature);
      // The feed's triggers and the secondary indexes wait until the rows are in (finish): a
      // trigger would log each copied row again, and an index is built far faster in one go.
      const setAside = db
        .prepare("SELECT type, name, sql FROM sqlite_master WHERE (type = 'trigger' AND tbl_name IN ('memories', 'memory_edges')) OR (type = 'index' AND sql IS NOT NULL) ORDER BY rowid")
        .all() as { type: string; name: string; sql: string }[];
      put.run('set_aside', JSON.stringify(setAside.map((o) => o.sql)));
      for (const o of setAside) db.exec(`DROP ${o.type === 'trigger' ? 'TRIGGER' : 'INDEX'} ${o.name}`);
    }).immediate();
  }

  writeBatch(spec: TableSpec, rows: CopyRow[], progress: TableProgress): void {
    const db = this.conn();
    const cols = copyColumns(spec);
    const insert = db.prepare(`INSERT INTO ${spec.name}(${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    db.transaction(() => {
      for (const row of rows) insert.run(...forSqlite(row));
      db.prepare(`INSERT OR REPLACE INTO ${PROGRESS_TABLE}(name, value) VALUES (?, ?)`).run(TABLE_KEY + spec.name, encodeProgress(progress));
    }).immediate();
  }

  finish(facts: SourceFacts, tables: readonly TableSpec[]): void {
    const db = this.conn();
    db.transaction(() => {
      const kept = db.prepare(`SELECT value FROM ${PROGRESS_TABLE} WHERE name = 'set_aside'`).get() as { value: string } | undefined;
      if (!kept) throw new MnemoError('internal', `${this.path}: the copy's progress table lost the feed's triggers and the indexes; start the copy again into a new file`);
      for (const sql of JSON.parse(kept.value) as string[]) db.exec(sql);
      if (tables.some((t) => t.name === 'mnemo_deltas')) {
        // As the belief ingest indexes them (belief-tables.ts indexEvidence): rows with evidence only.
        db.exec("INSERT INTO mnemo_delta_fts(rowid, evidence) SELECT id, evidence FROM mnemo_deltas WHERE evidence != '' ORDER BY id");
      }
      if (facts.hasMnemo) {
        db.prepare("DELETE FROM sqlite_sequence WHERE name = 'mnemo_feed'").run();
        if (facts.feedSequence !== null) db.prepare("INSERT INTO sqlite_sequence(name, seq) VALUES ('mnemo_feed', ?)").run(facts.feedSequence);
      }
      db.exec(`DROP TABLE ${PROGRESS_TABLE}`);
    }).immediate();
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
