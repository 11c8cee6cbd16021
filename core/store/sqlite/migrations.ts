/**
 * Schema management. nooa's tables migrate exactly as nooa does (add `owner`/`status` to v1 files,
 * stamp `user_version` 2, refuse newer files). Our `mnemo_*` tables carry their own version in
 * `mnemo_meta`; each migration is named, ordered and applied inside one transaction.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { MnemoError } from '../../errors.js';
import { NOOA_DDL, NOOA_SCHEMA_VERSION, NOOA_V2_INDEXES } from './ddl.js';
import { notAStore } from './store-probe.js';
import { cachedStatement } from './sqlite.js';
import { FEED_DDL } from './feed-ddl.js';
import { createViewIndexes } from './view-indexes.js';

type DB = Database.Database;

export interface MnemoMigration {
  name: string;
  /** `now` is the store's clock as the migration runs. */
  up(db: DB, now: number): void;
}

/** Applies nooa's DDL and the v1→v2 column additions; idempotent like nooa's own migration. */
export function migrateNooa(db: DB, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > NOOA_SCHEMA_VERSION) {
    throw new MnemoError(
      'schema',
      `${path} has nooa schema v${version}, but this build understands up to v${NOOA_SCHEMA_VERSION}; update mnemo (or open it with the nooa version that wrote it)`,
      { user_version: version },
    );
  }
  const hasMemories = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='memories'").get() !== undefined;
  const columns = hasMemories ? (db.prepare('PRAGMA table_info(memories)').all() as { name: string }[]).map((c) => c.name) : [];
  const needsWork =
    version !== NOOA_SCHEMA_VERSION || !hasMemories || !columns.includes('owner') || !columns.includes('status');
  if (!needsWork) return;
  db.transaction(() => {
    db.exec(NOOA_DDL);
    const cols = (db.prepare('PRAGMA table_info(memories)').all() as { name: string }[]).map((c) => c.name);
    if (!cols.includes('owner')) db.exec("ALTER TABLE memories ADD COLUMN owner TEXT NOT NULL DEFAULT ''");
    if (!cols.includes('status')) db.exec('ALTER TABLE memories ADD COLUMN status TEXT');
    db.exec(NOOA_V2_INDEXES);
    db.pragma(`user_version = ${NOOA_SCHEMA_VERSION}`);
  }).immediate();
}

/** Our migrations, in order. The store's mnemo schema version is the count applied. */
export const MNEMO_MIGRATIONS: MnemoMigration[] = [
  {
    name: '001-core',
    up(db) {
      db.exec(`
        CREATE TABLE mnemo_access_events (
          id             INTEGER PRIMARY KEY,
          memory_id      TEXT NOT NULL,
          ts             REAL NOT NULL,
          channel        TEXT NOT NULL,
          reader_owner   TEXT NOT NULL DEFAULT '',
          session_ref    TEXT,
          trace_ref      TEXT,
          query          TEXT,
          score          REAL,
          rank           INTEGER,
          source         TEXT,
          components     TEXT,
          strength_after INTEGER,
          reinforce      INTEGER NOT NULL DEFAULT 1,
          backfilled     INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX idx_mnemo_events_memory ON mnemo_access_events(memory_id, ts);
        CREATE INDEX idx_mnemo_events_ts ON mnemo_access_events(ts);
        CREATE INDEX idx_mnemo_events_reader ON mnemo_access_events(reader_owner);
        CREATE TABLE mnemo_journal (
          id          INTEGER PRIMARY KEY,
          ts          REAL NOT NULL,
          label       TEXT NOT NULL,
          kind        TEXT NOT NULL,
          counts      TEXT NOT NULL,
          state       TEXT NOT NULL DEFAULT 'applied',
          undone_at   REAL,
          undone_seq  INTEGER,
          undo_order  INTEGER,
          meta        TEXT
        );
        CREATE TABLE mnemo_journal_rows (
          change_id   INTEGER NOT NULL,
          key         TEXT NOT NULL,
          before      TEXT,
          after       TEXT,
          PRIMARY KEY (change_id, key)
        );
        CREATE INDEX idx_mnemo_journal_rows_key ON mnemo_journal_rows(key);
        CREATE TABLE mnemo_tombstones (
          hash        TEXT PRIMARY KEY,
          memory_id   TEXT NOT NULL,
          owner       TEXT NOT NULL DEFAULT '',
          ts          REAL NOT NULL,
          head        TEXT NOT NULL
        );
      `);
    },
  },
  {
    // The belief layer (core/beliefs): dimensions (the posterior after each one's last update),
    // the append-only delta log, entity aliases and rejected alias pairs, and an FTS5 index over
    // the deltas' evidence text. New deltas are indexed in bulk at the end of each ingest (a per-row
    // trigger made a 100k ingest several times slower); deletes and evidence edits are kept in step
    // by triggers.
    name: '002-beliefs',
    up(db) {
      db.exec(`
        CREATE TABLE mnemo_dimensions (
          entity       TEXT NOT NULL,
          attribute    TEXT NOT NULL,
          distribution TEXT NOT NULL,
          t_last       REAL NOT NULL,
          deltas       INTEGER NOT NULL,
          mode         TEXT,
          PRIMARY KEY (entity, attribute)
        ) WITHOUT ROWID;
        CREATE TABLE mnemo_deltas (
          id              INTEGER PRIMARY KEY,
          entity          TEXT NOT NULL,
          attribute       TEXT NOT NULL,
          observed_entity TEXT NOT NULL,
          value           TEXT NOT NULL,
          t               REAL NOT NULL,
          reliability     REAL,
          epsilon         REAL NOT NULL,
          prior           TEXT NOT NULL,
          posterior       TEXT NOT NULL,
          surprise        REAL NOT NULL,
          evidence        TEXT NOT NULL DEFAULT '',
          source          TEXT NOT NULL DEFAULT '',
          memory_id       TEXT,
          observation_id  TEXT,
          recorded_at     REAL NOT NULL
        );
        CREATE INDEX idx_mnemo_deltas_dim ON mnemo_deltas(entity, attribute, t, id);
        CREATE INDEX idx_mnemo_deltas_memory ON mnemo_deltas(memory_id) WHERE memory_id IS NOT NULL;
        CREATE TABLE mnemo_entity_aliases (
          alias      TEXT PRIMARY KEY,
          canonical  TEXT NOT NULL,
          divergence REAL,
          shared     INTEGER,
          merged_at  REAL NOT NULL
        );
        CREATE TABLE mnemo_alias_rejections (
          a           TEXT NOT NULL,
          b           TEXT NOT NULL,
          rejected_at REAL NOT NULL,
          PRIMARY KEY (a, b)
        );
        CREATE VIRTUAL TABLE mnemo_delta_fts USING fts5(evidence, content='mnemo_deltas', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
        CREATE TRIGGER mnemo_deltas_fts_ad AFTER DELETE ON mnemo_deltas BEGIN
          INSERT INTO mnemo_delta_fts(mnemo_delta_fts, rowid, evidence) VALUES ('delete', old.id, old.evidence);
        END;
        CREATE TRIGGER mnemo_deltas_fts_au AFTER UPDATE OF evidence ON mnemo_deltas BEGIN
          INSERT INTO mnemo_delta_fts(mnemo_delta_fts, rowid, evidence) VALUES ('delete', old.id, old.evidence);
          INSERT INTO mnemo_delta_fts(rowid, evidence) VALUES (new.id, new.evidence);
        END;
      `);
    },
  },
  {
    // Recall context of an access (hops, owner scope, k, profile), so a logged recall can be
    // replayed exactly; the ring entry keeps nooa's fields only.
    name: '003-access-context',
    up(db) {
      db.exec('ALTER TABLE mnemo_access_events ADD COLUMN context TEXT');
    },
  },
  {
    // The score's named contributions (rel, rec, imp, kw, ent, spread) of a logged recall, so the
    // audit and replay show every term that made the score; the ring keeps nooa's components.
    name: '004-access-terms',
    up(db) {
      db.exec('ALTER TABLE mnemo_access_events ADD COLUMN terms TEXT');
    },
  },
  {
    // A long change is undone, redone or rolled back a few rows at a time, newest first: the
    // primary key (change_id, key) orders a change's rows by key, so every step sorted all of
    // them again (a 500k-row undo took minutes). This index lists them in rowid order.
    name: '005-journal-rows-order',
    up(db) {
      db.exec('CREATE INDEX idx_mnemo_journal_rows_change ON mnemo_journal_rows(change_id)');
    },
  },
  {
    // Agent credentials (core/agent/credentials.ts): bearer tokens bound to an owner, stored only
    // as their hash. Accesses and changes made with one record its id, so the audit and the fleet
    // can attribute them; the partial indexes cover only those rows, so counting a credential's
    // use or finding when it was last used stays cheap on a store written mostly without one.
    name: '006-agent-credentials',
    up(db) {
      db.exec(`
        CREATE TABLE mnemo_agent_credentials (
          id          TEXT PRIMARY KEY,
          owner       TEXT NOT NULL,
          token_hash  TEXT NOT NULL UNIQUE,
          scopes      TEXT NOT NULL DEFAULT '[]',
          label       TEXT,
          created_at  REAL NOT NULL,
          revoked_at  REAL
        );
        ALTER TABLE mnemo_access_events ADD COLUMN credential_id TEXT;
        CREATE INDEX idx_mnemo_events_credential ON mnemo_access_events(credential_id, ts) WHERE credential_id IS NOT NULL;
        ALTER TABLE mnemo_journal ADD COLUMN credential_id TEXT;
        CREATE INDEX idx_mnemo_journal_credential ON mnemo_journal(credential_id, ts) WHERE credential_id IS NOT NULL;
      `);
    },
  },
  {
    // The change feed (feed-ddl.ts): triggers on nooa's two tables append every change, by any
    // writer, to mnemo_feed. The epoch names this feed, so a position taken from another file (a
    // copy restored over this one, a rebuilt store) is never mistaken for one of this feed's.
    name: '007-change-feed',
    up(db, now) {
      db.exec(FEED_DDL);
      db.exec("INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES ('feed_epoch', lower(hex(randomblob(8))))");
      // Where history starts: time travel shows the store at any instant from here on (history-instant.ts).
      db.prepare("INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES ('feed_installed_at', ?)").run(String(now));
    },
  },
  {
    // Saved scoring profiles (saved-profiles.ts): a named profile is data, its full knobs and
    // features as JSON, so a fitted profile can be named by any call and set as the store default.
    name: '008-saved-profiles',
    up(db) {
      db.exec(`
        CREATE TABLE mnemo_profiles (
          name        TEXT PRIMARY KEY,
          base        TEXT NOT NULL,
          config      TEXT NOT NULL,
          created_at  REAL NOT NULL,
          updated_at  REAL NOT NULL,
          default_since REAL
        );
      `);
    },
  },
];

export const MNEMO_SCHEMA_VERSION = MNEMO_MIGRATIONS.length;

/** Per connection, the schema cookie at which its mnemo tables were last found current (migrateMnemo). */
const currentAtCookie = new WeakMap<DB, number>();

/** Per connection, whether mnemo_meta existed at a schema cookie, as found outside any transaction. */
const mnemoAtCookie = new WeakMap<DB, { cookie: number; has: boolean }>();

export function hasMnemoSchema(db: DB): boolean {
  // Asked several times by each recall (its meta reads and feed checks), and each ask scans
  // sqlite_master, whose trigger text is long. The answer stands while the schema cookie does: any
  // committed DDL, ours or another process's, moves it. It is kept only when found outside a
  // transaction, since a rolled-back one takes its cookie back while other DDL may reuse the number.
  const cookie = cachedStatement(db, 'PRAGMA schema_version').pluck().get() as number;
  const known = mnemoAtCookie.get(db);
  if (known?.cookie === cookie) return known.has;
  const has = cachedStatement(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_meta'").get() !== undefined;
  if (!db.inTransaction) mnemoAtCookie.set(db, { cookie, has });
  return has;
}

export function readMnemoVersion(db: DB): number {
  if (!hasMnemoSchema(db)) return 0;
  const row = cachedStatement(db, "SELECT value FROM mnemo_meta WHERE key='schema_version'").get() as { value: string } | undefined;
  return row ? Number(row.value) : 0;
}

/** Whether the named migration has been applied (a store opened read-only is not upgraded, so older columns may be missing). */
export function hasMigration(db: DB, name: string): boolean {
  const index = MNEMO_MIGRATIONS.findIndex((m) => m.name === name);
  if (index < 0) throw new MnemoError('internal', `no migration named ${JSON.stringify(name)}`);
  return readMnemoVersion(db) > index;
}

export function assertMnemoVersionSupported(db: DB, path: string): void {
  const v = readMnemoVersion(db);
  if (v > MNEMO_SCHEMA_VERSION) {
    throw new MnemoError(
      'schema',
      `${path} has mnemo schema v${v}, but this build understands up to v${MNEMO_SCHEMA_VERSION}; update mnemo`,
      { mnemo_schema_version: v },
    );
  }
}

/**
 * Creates or upgrades the mnemo tables in one transaction. `initialProfile` is recorded only when
 * mnemo_meta is created: a nooa store keeps scoring like nooa until someone changes it.
 */
export function migrateMnemo(db: DB, path: string, initialProfile: string, now: number, afterCreate?: (db: DB) => void): boolean {
  // Every write asks this first, and each question scans sqlite_master (its trigger text is long):
  // a fifth of a millisecond per recall's access write. Current stays current while SQLite's
  // schema cookie stands still; any DDL, ours or another process's, moves it.
  const cookie = cachedStatement(db, 'PRAGMA schema_version').pluck().get() as number;
  if (currentAtCookie.get(db) === cookie) return false;
  assertMnemoVersionSupported(db, path);
  const current = readMnemoVersion(db);
  if (current === MNEMO_SCHEMA_VERSION && hasMnemoSchema(db)) {
    currentAtCookie.set(db, cookie);
    return false;
  }
  db.transaction(() => {
    const fresh = !hasMnemoSchema(db);
    if (fresh) {
      db.exec('CREATE TABLE mnemo_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      const put = db.prepare('INSERT INTO mnemo_meta(key, value) VALUES (?, ?)');
      put.run('profile', initialProfile);
      put.run('created_at', String(now));
      put.run('schema_version', '0');
    }
    const start = readMnemoVersion(db);
    for (const migration of MNEMO_MIGRATIONS.slice(start)) migration.up(db, now);
    // Not a numbered migration (view-indexes.ts says why): made with Mnemo's tables, or found missing at an open.
    createViewIndexes(db);
    db.prepare("INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES ('schema_version', ?)").run(String(MNEMO_SCHEMA_VERSION));
    if (fresh && afterCreate) afterCreate(db);
  }).immediate();
  return true;
}

/**
 * Brings nooa's tables to the version this build writes (a read-only open only checks them) and
 * refuses a newer Mnemo schema. Returns true when the file has no memories table yet (a new store);
 * read-only, such a file is not a store and is refused.
 */
export function prepareNooaSchema(db: Database.Database, path: string, readonly: boolean): boolean {
  const fresh = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='memories'").get() === undefined;
  if (readonly) {
    const v = db.pragma('user_version', { simple: true }) as number;
    if (v > 2) migrateNooa(db, path); // throws the schema error
    if (fresh) throw notAStore(path, path !== ':memory:' && statSync(path).size === 0 ? 'empty' : 'foreign');
  } else {
    migrateNooa(db, path);
  }
  assertMnemoVersionSupported(db, path);
  return fresh;
}
