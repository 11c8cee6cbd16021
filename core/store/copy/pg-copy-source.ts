/**
 * A PostgreSQL schema as the source of `mnemo copy`: read in one REPEATABLE READ READ ONLY
 * transaction (one snapshot), in key order, each value turned back into the copy's type.
 */
import { MnemoError } from '../../errors.js';
import { MNEMO_SCHEMA_VERSION } from '../sqlite/migrations.js';
import { classOf, copyColumns, storeTables, type TableSpec } from './store-tables.js';
import { PROGRESS_TABLE, signatureOf, type CopyRow, type CopySource, type CopyValue, type SourceFacts } from './copy-endpoint.js';
import { PgStoreConnection } from '../pg/pg-store-connection.js';
import { PG_STORE_TABLE } from '../pg/pg-schema.js';
import { ident, type PgStoreUrl } from '../pg/pg-url.js';
import { fromPg, toPgText } from '../pg/pg-values.js';

export class PgCopySource implements CopySource {
  private readonly conn: PgStoreConnection;

  constructor(url: PgStoreUrl) {
    this.conn = new PgStoreConnection(url);
  }

  get shown(): string {
    return this.conn.shown;
  }

  open(): SourceFacts {
    const db = this.conn.db();
    db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const present = this.conn.tablesPresent();
    if (!present.has(PG_STORE_TABLE)) throw new MnemoError('not_found', `${this.shown} holds no store (schema ${this.conn.url.schema} has no ${PG_STORE_TABLE} table); copy a store into it first`, { schema: this.conn.url.schema });
    if (present.has(PROGRESS_TABLE)) throw new MnemoError('conflict', `${this.shown} holds an unfinished copy; finish it (mnemo copy … --resume) before copying from it`, { schema: this.conn.url.schema });
    const facts = this.conn.storeFacts();
    const level = Number(facts.get('mnemo_schema_version'));
    if (level !== MNEMO_SCHEMA_VERSION) {
      throw new MnemoError('schema', `${this.shown} holds a store of mnemo schema v${level}, and this build copies v${MNEMO_SCHEMA_VERSION}; use the mnemo that made it`, { mnemo_schema_version: level });
    }
    const feed = storeTables().find((t) => t.autoincrement);
    return {
      nooaVersion: Number(facts.get('nooa_user_version')),
      hasMnemo: facts.get('has_mnemo') === '1',
      counts: {},
      feedSequence: feed && facts.get('has_mnemo') === '1' ? this.conn.sequenceValue(feed) : null,
      signature: '',
    };
  }

  describe(facts: SourceFacts, tables: readonly TableSpec[]): SourceFacts {
    const db = this.conn.db();
    const counts: Record<string, number> = {};
    const lasts: Record<string, unknown> = {};
    for (const t of tables) {
      counts[t.name] = Number(db.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.conn.table(t.name)}`)[0]!.n);
      if (t.copyKey.length === 1) {
        const m = db.query<{ m: string | null }>(`SELECT max(${ident(t.copyKey[0]!)}) AS m FROM ${this.conn.table(t.name)}`)[0]!.m;
        lasts[t.name] = m === null ? null : BigInt(m);
      }
    }
    const meta = facts.hasMnemo ? db.query(`SELECT key, value FROM ${this.conn.table('mnemo_meta')} ORDER BY key`) : [];
    return { ...facts, counts, signature: signatureOf({ counts, lasts, meta, seq: facts.feedSequence, nooa: facts.nooaVersion, mnemo: facts.hasMnemo }) };
  }

  /** Nothing to refuse: a PostgreSQL column holds only its own type, and SQLite holds any text PostgreSQL can. */
  check(): void {}

  readBatch(spec: TableSpec, after: CopyValue[] | null, limit: number): CopyRow[] {
    const cols = copyColumns(spec);
    const keys = spec.copyKey.map(ident);
    const params: unknown[] = after ? after.map((v, i) => toPgText(v, classOf(spec, spec.copyKey[i]!))) : [];
    const where = after ? ` WHERE (${keys.join(', ')}) > (${keys.map((_k, i) => `$${i + 1}`).join(', ')})` : '';
    params.push(limit);
    const rows = this.conn.db().query(`SELECT ${cols.map(ident).join(', ')} FROM ${this.conn.table(spec.name)}${where} ORDER BY ${keys.join(', ')} LIMIT $${params.length}`, params);
    return rows.map((r) => cols.map((c) => fromPg(r[c], classOf(spec, c), `${spec.name}.${c}`)));
  }

  close(): void {
    this.conn.close();
  }
}
