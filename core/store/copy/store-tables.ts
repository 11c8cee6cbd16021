/**
 * Every table of a store at this build's migration level, read from the SQLite DDL itself: an
 * in-memory store is made with nooa's DDL and every Mnemo migration, and its tables, columns, keys
 * and indexes are listed from SQLite's catalogue. The PostgreSQL schema (pg/pg-schema.ts) and the
 * copy (copy-stores.ts) are both built from this list, so a new migration reaches them without
 * anyone keeping a second list in step.
 *
 * Left out: SQLite's own tables (`sqlite_sequence` travels as the feed's sequence value instead)
 * and the FTS5 index over delta evidence (a virtual table and its shadow tables): it is derived
 * from `mnemo_deltas` and rebuilt on a SQLite target.
 */
import Database from 'better-sqlite3';
import { MnemoError } from '../../errors.js';
import { migrateMnemo, migrateNooa } from '../sqlite/migrations.js';
import { VIEW_INDEX_NAMES } from '../sqlite/view-indexes.js';

/** SQLite's storage classes, as a column declares them (REAL, INTEGER, TEXT, BLOB). */
export type StorageClass = 'integer' | 'real' | 'text' | 'blob';

export interface ColumnSpec {
  name: string;
  declared: StorageClass;
  notNull: boolean;
  /** SQLite's default expression as written in the DDL ('' quoted, numbers bare), or null. */
  defaultSql: string | null;
}

export interface IndexSpec {
  name: string;
  columns: string[];
  unique: boolean;
  /** A partial index's condition (`memory_id IS NOT NULL`), or null. */
  where: string | null;
}

export interface TableSpec {
  name: string;
  /** nooa's own tables (memories, memory_edges, maintenance_log); the rest are Mnemo's. */
  nooa: boolean;
  /** The columns as declared, in order. */
  columns: ColumnSpec[];
  /**
   * True when the table keeps a rowid that no declared column names (memories, memory_edges, …):
   * the copy carries it as a column `rowid`, because nooa iterates and breaks ties in rowid order.
   */
  hiddenRowid: boolean;
  /** The declared primary key (empty when there is none). */
  primaryKey: string[];
  /** An INTEGER PRIMARY KEY that is the rowid (SQLite numbers new rows itself), or null. */
  rowidAlias: string | null;
  /** AUTOINCREMENT: numbers are never reused (the feed's sequence). */
  autoincrement: boolean;
  /** The order a copy reads rows in, and resumes from: ['rowid'], the alias, or the key of a WITHOUT ROWID table. */
  copyKey: string[];
  indexes: IndexSpec[];
}

const NOOA_TABLES = new Set(['memories', 'memory_edges', 'maintenance_log']);

function storageClassOf(table: string, column: string, declared: string): StorageClass {
  const t = declared.toUpperCase();
  if (t === 'INTEGER' || t === 'REAL' || t === 'TEXT' || t === 'BLOB') return t.toLowerCase() as StorageClass;
  throw new MnemoError('internal', `${table}.${column} is declared ${JSON.stringify(declared)}; the PostgreSQL schema knows INTEGER, REAL, TEXT and BLOB only`);
}

/** The column list a copy moves for a table: its rowid first when no column names it. */
export function copyColumns(spec: TableSpec): string[] {
  return spec.hiddenRowid ? ['rowid', ...spec.columns.map((c) => c.name)] : spec.columns.map((c) => c.name);
}

/** The storage class of a copied column ('rowid' is an integer). */
export function classOf(spec: TableSpec, column: string): StorageClass {
  if (column === 'rowid') return 'integer';
  const c = spec.columns.find((col) => col.name === column);
  if (!c) throw new MnemoError('internal', `${spec.name} has no column ${column}`);
  return c.declared;
}

function readTables(db: Database.Database): TableSpec[] {
  const objects = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid").all() as { name: string; sql: string }[];
  const virtual = objects.filter((o) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(o.sql)).map((o) => o.name);
  const isDerived = (name: string) => name.startsWith('sqlite_') || virtual.some((v) => name === v || name.startsWith(`${v}_`));
  return objects
    .filter((o) => !isDerived(o.name))
    .map(({ name, sql }) => {
      const info = db.prepare('SELECT name, type, "notnull" AS nn, dflt_value, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as {
        name: string;
        type: string;
        nn: number;
        dflt_value: string | null;
        pk: number;
      }[];
      const columns = info.map((c) => ({ name: c.name, declared: storageClassOf(name, c.name, c.type), notNull: c.nn === 1, defaultSql: c.dflt_value }));
      const primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      const withoutRowid = /WITHOUT\s+ROWID\s*$/i.test(sql.trim());
      const rowidAlias = !withoutRowid && primaryKey.length === 1 && columns.find((c) => c.name === primaryKey[0])!.declared === 'integer' ? primaryKey[0]! : null;
      const hiddenRowid = !withoutRowid && rowidAlias === null;
      const indexList = db.prepare("SELECT name, \"unique\" AS u, partial FROM pragma_index_list(?) WHERE origin = 'c'").all(name) as { name: string; u: number; partial: number }[];
      const indexes = indexList
        // The views' indexes are on an expression, which these specs cannot say; a SQLite copy gets
        // them with Mnemo's tables (view-indexes.ts), and PostgreSQL's list and graph read no such expression.
        .filter((ix) => !VIEW_INDEX_NAMES.has(ix.name))
        .map((ix) => {
          const cols = (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(ix.name) as { name: string }[]).map((c) => c.name);
          const ddl = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(ix.name) as { sql: string }).sql;
          const where = ix.partial ? (/\bWHERE\b([\s\S]*)$/i.exec(ddl)?.[1]?.trim() ?? null) : null;
          return { name: ix.name, columns: cols, unique: ix.u === 1, where };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      return {
        name,
        nooa: NOOA_TABLES.has(name),
        columns,
        hiddenRowid,
        primaryKey,
        rowidAlias,
        autoincrement: /\bAUTOINCREMENT\b/i.test(sql),
        copyKey: rowidAlias ? [rowidAlias] : hiddenRowid ? ['rowid'] : primaryKey,
        indexes,
      };
    });
}

let cached: readonly TableSpec[] | null = null;

/** The tables of a store at this build's level, nooa's first, in the order their DDL creates them. */
export function storeTables(): readonly TableSpec[] {
  if (cached) return cached;
  const db = new Database(':memory:');
  try {
    migrateNooa(db, ':memory:');
    // The instant only fills meta rows of this scratch store, which nothing reads.
    migrateMnemo(db, ':memory:', 'mnemo', 0);
    cached = readTables(db);
  } finally {
    db.close();
  }
  return cached;
}
