/**
 * A SQLite store as the source of a copy: opened read-only, read in one read transaction (one
 * snapshot, whatever other processes commit meanwhile), integers read as bigint so 64 bits survive.
 *
 * SQLite is dynamically typed: a column declared REAL may hold text if a writer put text there.
 * What the demo store and the nooa fixture hold was checked with typeof(): every value has its
 * column's declared class, or is NULL. Before the copy writes anything, `check` looks for a value
 * that is not (and, for a PostgreSQL target, for text holding NUL, which PostgreSQL's text cannot
 * hold) and refuses the copy with a typed error naming the table, the row, the column and the fix:
 * a value is never changed on the way. The same goes for text that is not UTF-8 (a lone UTF-16
 * surrogate that a writer stored as the bytes ED A0 80, say): read back, it comes out as U+FFFD,
 * another value, on whichever backend the copy lands.
 */
import { isUtf8 } from 'node:buffer';
import type Database from 'better-sqlite3';
import { MnemoError } from '../../errors.js';
import { NOOA_SCHEMA_VERSION } from '../sqlite/ddl.js';
import { hasMnemoSchema, MNEMO_SCHEMA_VERSION, readMnemoVersion } from '../sqlite/migrations.js';
import { connect } from '../sqlite/sqlite.js';
import { copyColumns, type StorageClass, type TableSpec } from './store-tables.js';
import { signatureOf, type CopyRow, type CopySource, type CopyValue, type SourceFacts } from './copy-endpoint.js';

const DECLARED: Record<StorageClass, string> = { integer: 'INTEGER', real: 'REAL', text: 'TEXT', blob: 'BLOB' };

function keyWhere(spec: TableSpec): string {
  return spec.copyKey.length === 1 ? `${spec.copyKey[0]} > ?` : `(${spec.copyKey.join(', ')}) > (${spec.copyKey.map(() => '?').join(', ')})`;
}

export class SqliteCopySource implements CopySource {
  private db: Database.Database | null = null;

  constructor(private readonly path: string) {}

  get shown(): string {
    return this.path;
  }

  private conn(): Database.Database {
    if (!this.db) throw new MnemoError('internal', 'the copy source is not open');
    return this.db;
  }

  open(): SourceFacts {
    const db = connect(this.path, { readonly: true });
    this.db = db;
    db.exec('BEGIN'); // one snapshot from the first read on
    const nooaVersion = db.pragma('user_version', { simple: true }) as number;
    const hasMemories = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories'").get() !== undefined;
    if (!hasMemories || nooaVersion !== NOOA_SCHEMA_VERSION) {
      throw new MnemoError('schema', `${this.path} is ${hasMemories ? `a nooa store of schema v${nooaVersion}` : 'not a store (it has no memories table)'}; mnemo copy reads stores of nooa schema v${NOOA_SCHEMA_VERSION}: open it for writing once with this build of mnemo (any write migrates it), then copy`, {
        path: this.path,
        user_version: nooaVersion,
      });
    }
    const hasMnemo = hasMnemoSchema(db);
    const level = readMnemoVersion(db);
    if (hasMnemo && level !== MNEMO_SCHEMA_VERSION) {
      throw new MnemoError('schema', `${this.path} has mnemo schema v${level}, and this build copies v${MNEMO_SCHEMA_VERSION}: ${level < MNEMO_SCHEMA_VERSION ? 'write to it once with this build of mnemo (any write migrates it), then copy' : 'update mnemo'}`, {
        path: this.path,
        mnemo_schema_version: level,
      });
    }
    const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    const seq = present.has('sqlite_sequence') ? (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").safeIntegers(true).get() as { seq: bigint } | undefined) : undefined;
    return { nooaVersion, hasMnemo, counts: {}, feedSequence: seq?.seq ?? null, signature: '' };
  }

  /** Row counts and the fingerprint of the tables the copy moves (a resume compares it). */
  describe(facts: SourceFacts, tables: readonly TableSpec[]): SourceFacts {
    const db = this.conn();
    const counts: Record<string, number> = {};
    const lasts: Record<string, unknown> = {};
    for (const t of tables) {
      counts[t.name] = Number((db.prepare(`SELECT count(*) AS n FROM ${t.name}`).get() as { n: number }).n);
      if (t.copyKey.length === 1) lasts[t.name] = (db.prepare(`SELECT max(${t.copyKey[0]}) AS m FROM ${t.name}`).safeIntegers(true).get() as { m: unknown }).m;
    }
    const meta = facts.hasMnemo ? db.prepare('SELECT key, value FROM mnemo_meta ORDER BY key').all() : [];
    return { ...facts, counts, signature: signatureOf({ counts, lasts, meta, seq: facts.feedSequence, nooa: facts.nooaVersion, mnemo: facts.hasMnemo }) };
  }

  /**
   * The first value the copy could not keep exactly: a storage class other than the column's
   * declared one, or (for a PostgreSQL target) text holding NUL. Throws a typed error naming it.
   */
  check(spec: TableSpec, forPostgres: boolean): void {
    const db = this.conn();
    // Whether a text value's bytes are UTF-8 (SQLite does not check what a writer stores as text).
    db.function('mnemo_utf8', { deterministic: true }, (bytes: unknown) => (bytes instanceof Uint8Array && !isUtf8(bytes) ? 0 : 1));
    const columns = spec.columns;
    const notUtf8 = (c: string) => `(typeof(${c}) = 'text' AND mnemo_utf8(CAST(${c} AS BLOB)) = 0)`;
    const odd = columns.map((c) => {
      const cond = `typeof(${c.name}) NOT IN ('${c.declared}', 'null')`;
      if (c.declared !== 'text') return cond;
      return `(${cond} OR ${notUtf8(c.name)}${forPostgres ? ` OR (typeof(${c.name}) = 'text' AND instr(${c.name}, char(0)) > 0)` : ''})`;
    });
    const sql = `SELECT ${spec.copyKey.join(', ')}, ${columns.map((c) => `typeof(${c.name}) AS "t:${c.name}", CASE WHEN typeof(${c.name}) = 'text' THEN instr(${c.name}, char(0)) ELSE 0 END AS "z:${c.name}", ${notUtf8(c.name)} AS "u:${c.name}"`).join(', ')} FROM ${spec.name} WHERE ${odd.join(' OR ')} LIMIT 1`;
    const row = db.prepare(sql).safeIntegers(true).get() as Record<string, unknown> | undefined;
    if (!row) return;
    const key = spec.copyKey.map((k) => `${k} = ${typeof row[k] === 'string' ? JSON.stringify(row[k]) : String(row[k])}`).join(', ');
    for (const c of columns) {
      const found = row[`t:${c.name}`] as string;
      if (found !== c.declared && found !== 'null') {
        throw new MnemoError('bad_input', `${this.path}: ${spec.name} row ${key} holds a ${found} value in ${c.name}, which is declared ${DECLARED[c.declared]}; a copy keeps one type per column and never converts a value. Fix the row in the source (for example UPDATE ${spec.name} SET ${c.name} = CAST(${c.name} AS ${DECLARED[c.declared]}) WHERE ${key}, if that is what it should hold) and copy again`, {
          table: spec.name,
          row: key,
          column: c.name,
          found,
          declared: c.declared,
        });
      }
      if (Number(row[`u:${c.name}`] as bigint) > 0) {
        throw new MnemoError('bad_input', `${this.path}: ${spec.name} row ${key} holds text that is not UTF-8 in ${c.name} (a lone UTF-16 surrogate stored as bytes, for example); read back it becomes U+FFFD, another value, and a copy never changes a value. Put the character it should hold in the source (find it with SELECT hex(${c.name}) FROM ${spec.name} WHERE ${key}) and copy again`, {
          table: spec.name,
          row: key,
          column: c.name,
          reason: 'not_utf8',
        });
      }
      if (forPostgres && Number(row[`z:${c.name}`] as bigint) > 0) {
        throw new MnemoError('bad_input', `${this.path}: ${spec.name} row ${key} has a NUL character in ${c.name}, and PostgreSQL text cannot hold one; a copy never changes a value. Remove it in the source (UPDATE ${spec.name} SET ${c.name} = replace(${c.name}, char(0), '') WHERE ${key}) or keep this store on SQLite`, {
          table: spec.name,
          row: key,
          column: c.name,
        });
      }
    }
  }

  readBatch(spec: TableSpec, after: CopyValue[] | null, limit: number): CopyRow[] {
    const cols = copyColumns(spec);
    const sql = `SELECT ${cols.join(', ')} FROM ${spec.name}${after ? ` WHERE ${keyWhere(spec)}` : ''} ORDER BY ${spec.copyKey.join(', ')} LIMIT ?`;
    return this.conn()
      .prepare(sql)
      .safeIntegers(true)
      .raw(true)
      .all(...(after ?? []), limit) as CopyRow[];
  }

  close(): void {
    if (!this.db) return;
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.db.close();
    this.db = null;
  }
}
