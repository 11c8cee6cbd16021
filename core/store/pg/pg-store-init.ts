/**
 * Making and checking a PostgreSQL store's schema when the adapter opens it. A new store gets the
 * schema `mnemo copy` makes (pg-schema.ts), its indexes, its own facts and the `mnemo_meta` rows a
 * new SQLite store starts with. Those rows are taken from a scratch SQLite store made by the same
 * migrations, so the two backends cannot drift apart on what a new store holds.
 */
import Database from 'better-sqlite3';
import { MnemoError } from '../../errors.js';
import { accessEventValues, accessRingEntries } from '../sqlite/access-events.js';
import { PROGRESS_TABLE } from '../copy/copy-endpoint.js';
import { migrateMnemo, migrateNooa, MNEMO_SCHEMA_VERSION } from '../sqlite/migrations.js';
import { pgFeedDdl } from './pg-feed-ddl.js';
import { PG_STORE_TABLE, pgIndexDdl, pgStoreDdl } from './pg-schema.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** What a new store's meta and facts are: nooa's user_version and mnemo_meta as a new SQLite store has them. */
function newStoreRows(initialProfile: string, now: number): { nooaVersion: number; meta: { key: string; value: string }[] } {
  const db = new Database(':memory:');
  try {
    migrateNooa(db, ':memory:');
    migrateMnemo(db, ':memory:', initialProfile, now);
    return {
      nooaVersion: db.pragma('user_version', { simple: true }) as number,
      meta: db.prepare('SELECT key, value FROM mnemo_meta ORDER BY rowid').all() as { key: string; value: string }[],
    };
  } finally {
    db.close();
  }
}

/** Creates a store in the connection's schema, which must hold no table, with its change feed; one transaction (nothing when another connection made one meanwhile). */
export function createPgStore(conn: PgStoreConnection, initialProfile: string, now: number): void {
  const db = conn.db();
  const rows = newStoreRows(initialProfile, now);
  db.transaction(() => {
    // Several processes opening one new store at once (a fleet's agents starting together): one
    // makes it while the others wait here, then find it made. CREATE SCHEMA IF NOT EXISTS alone
    // does not do this: a second one waits for the first's row in the catalog and then fails.
    db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mnemo:create:${conn.url.schema}`]);
    if (conn.tablesPresent().size > 0) return;
    for (const sql of [...pgStoreDdl(conn.url.schema), ...pgIndexDdl(conn.url.schema)]) db.query(sql);
    const fact = (key: string, value: string) => db.query(`INSERT INTO ${conn.table(PG_STORE_TABLE)}(key, value) VALUES ($1, $2)`, [key, value]);
    fact('nooa_user_version', String(rows.nooaVersion));
    fact('mnemo_schema_version', String(MNEMO_SCHEMA_VERSION));
    fact('has_mnemo', '1');
    for (const m of rows.meta) db.query(`INSERT INTO ${conn.table('mnemo_meta')}(key, value) VALUES ($1, $2)`, [m.key, m.value]);
    // Last: the feed's triggers would log the rows above (none are memories today, but a new store's feed starts empty).
    for (const sql of pgFeedDdl(conn.url.schema, now)) db.query(sql);
  });
}

/**
 * Checks that the schema holds a finished store of this build's level; with `create`, makes one in
 * a schema that holds no table. Returns whether the store has Mnemo's tables (has_mnemo).
 */
export function preparePgStore(conn: PgStoreConnection, opts: { create: boolean; initialProfile: string; now: number }): boolean {
  let present = conn.tablesPresent();
  if (present.size === 0 && opts.create) {
    createPgStore(conn, opts.initialProfile, opts.now);
    present = conn.tablesPresent();
  }
  if (!present.has(PG_STORE_TABLE)) {
    const why = present.size === 0 ? 'holds no store' : `holds tables but no ${PG_STORE_TABLE}, so it is not a store`;
    throw new MnemoError('schema', `${conn.shown}: schema ${conn.url.schema} ${why}; make one there (mnemo init ${conn.shown}) or copy a store into it (mnemo copy <store> ${conn.shown})`, { schema: conn.url.schema });
  }
  if (present.has(PROGRESS_TABLE)) {
    throw new MnemoError('conflict', `${conn.shown} holds an unfinished copy; finish it (mnemo copy … --resume) before opening it`, { schema: conn.url.schema });
  }
  const facts = conn.storeFacts();
  const level = Number(facts.get('mnemo_schema_version'));
  if (level !== MNEMO_SCHEMA_VERSION) {
    throw new MnemoError('schema', `${conn.shown} holds a store of mnemo schema v${level}, and this build runs v${MNEMO_SCHEMA_VERSION}; use the mnemo that made it`, { mnemo_schema_version: level });
  }
  return facts.get('has_mnemo') === '1';
}

/**
 * Gives a nooa-only store (a copy of a file only nooa had written) what SQLite's migration gives it
 * the first time Mnemo writes to it: the `mnemo_meta` rows of a store nooa made (profile
 * `nooa-0.0.9`), an access event per entry already in the memories' rings, and the fact that says it
 * has Mnemo's tables. The tables themselves exist already: a PostgreSQL store's schema always has
 * every table. Run inside the store's transaction; the fact's row is locked first, so two
 * connections doing it at once backfill once. Returns false when another connection had done it.
 */
export function addMnemoToPgStore(conn: PgStoreConnection, now: number, insertEvents: (rows: readonly (readonly unknown[])[]) => void): boolean {
  const db = conn.db();
  const [fact] = db.query<{ value: string }>(`SELECT value FROM ${conn.table(PG_STORE_TABLE)} WHERE key = 'has_mnemo' FOR UPDATE`);
  if (fact?.value === '1') return false;
  const rows = newStoreRows('nooa-0.0.9', now);
  for (const m of rows.meta) db.query(`INSERT INTO ${conn.table('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [m.key, m.value]);
  const memories = db.query<{ id: string; data: string }>(`SELECT id, data FROM ${conn.table('memories')} ORDER BY rowid`);
  // Entries from before the table existed: no credential made them, whatever call triggered this.
  insertEvents(memories.flatMap((m) => accessRingEntries(m.data).map((rec) => accessEventValues(m.id, rec, null, true, true, null, null, null))));
  db.query(`INSERT INTO ${conn.table(PG_STORE_TABLE)}(key, value) VALUES ('has_mnemo', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  return true;
}
