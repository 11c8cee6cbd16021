/**
 * Where a PostgreSQL store's reads go when it has read replicas: streaming standbys of its primary
 * (PostgreSQL's own replication; docs/postgres.md, "Replicas"). Writes, and every read inside a
 * transaction, stay on the primary (PgStoreConnection.read); a read outside one goes to the first
 * replica that is up and has replayed what this store has seen, else to the primary.
 *
 * Read your writes. Each commit of this store asks the primary where its log ends
 * (`pg_current_wal_insert_lsn()`, in the COMMIT's request); any other request to the primary (a
 * write outside PgStore.transaction, a read that fell back to it) makes the next read ask once.
 * A replica serves a read only once its replayed position (`pg_last_wal_replay_lsn()`) reaches
 * that LSN: the router waits for it, polling every millisecond or so, at most `waitMs`
 * (MNEMO_PG_REPLICA_WAIT_MS, 1 s by default), and reads the primary if it does not get there.
 * After such a timeout it stops waiting: later reads check once and go to the primary until the
 * replica has caught up, so a replica far behind costs one round trip a read, not a second.
 *
 * A replica that cannot be reached, or whose connection is lost, is set aside with a warning and
 * tried again after a pause that doubles from one second up to thirty; the reads go to the next
 * one, or to the primary. When it answers again it takes its reads back, with a note saying so.
 *
 * A standby cannot make the temporary functions the adapter's JSON filters use on a primary
 * connection (pg-json-sql.ts): a statement naming them runs on the replica against the store's own
 * copies (made by the feed's DDL), or on the primary for a store whose schema lacks them.
 */
import { MnemoError } from '../../errors.js';
import type { PgReplicaStatus } from '../port/port.js';
import { isConnectionFailure, SyncPg } from './sync-pg.js';
import { PG_TEMP_JSON_PREFIX } from './pg-json-sql.js';
import { ident, type PgStoreUrl } from './pg-url.js';

/** A statement's reads: what PgStoreConnection.read hands the adapter's read modules. */
export interface PgReads {
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: readonly unknown[]): T[];
}

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;
/** How long a replica's replayed position is trusted before a status asks again. */
const POLL_MS = 1;

/** The longest a read waits for a replica to replay this store's writes: MNEMO_PG_REPLICA_WAIT_MS, else 1 s. */
export function replicaWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env['MNEMO_PG_REPLICA_WAIT_MS']);
  return env['MNEMO_PG_REPLICA_WAIT_MS'] !== undefined && Number.isFinite(n) && n >= 0 ? Math.min(n, 60_000) : 1_000;
}

/** An LSN (`16/B374D848`) as a number of bytes. */
export function lsnBytes(lsn: string | null | undefined): bigint | null {
  if (!lsn) return null;
  const m = /^([0-9A-F]+)\/([0-9A-F]+)$/i.exec(lsn);
  return m ? (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`) : null;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

class Replica {
  pg: SyncPg | null = null;
  /** Set aside until then (epoch ms) after a failure; 0 while usable. */
  downUntil = 0;
  retryMs = FIRST_RETRY_MS;
  /** The last replayed position read from it, in bytes (0 before the first). */
  replayed = 0n;
  /** Reads are not waited for: the last wait timed out, and it has not caught up since. */
  lagging = false;
  lastError: string | null = null;
  /** Whether the store's schema has its own JSON functions (null: not asked yet). */
  jsonFunctions: boolean | null = null;
  /** Reads it served and reads that went to the primary while it was set aside or behind. */
  served = 0;
  fellBack = 0;
  constructor(readonly url: PgStoreUrl) {}
}

/** What the router needs of the store's connection to the primary. */
export interface PrimarySide {
  /** The primary's connection, connected if need be; throws (a typed error naming the primary) when it cannot be reached. */
  connect(): SyncPg;
  /** The primary's connection if one is open and not lost, without connecting. */
  current(): SyncPg | null;
}

export class PgReadRouter {
  private readonly replicas: Replica[];
  /** The primary's log position this store has seen (its commits, and its reads of the primary), in bytes. */
  private seen = 0n;
  /** The primary connection's request count when `seen` was last brought up to date. */
  private seenAt = -1;
  private seenOn: SyncPg | null = null;

  constructor(
    private readonly primary: PrimarySide,
    urls: readonly PgStoreUrl[],
    private readonly schema: string,
    private readonly warn: (key: string, message: string) => void,
    private readonly waitMs = replicaWaitMs(),
  ) {
    this.replicas = urls.map((u) => new Replica(u));
  }

  get size(): number {
    return this.replicas.length;
  }

  /** The replicas' URLs as shown (passwords as ***). */
  get shown(): string[] {
    return this.replicas.map((r) => r.url.shown);
  }

  /** A commit of this store ended at `lsn` on the primary (asked in the COMMIT's request on `on`). */
  noteCommit(lsn: string | null, on: SyncPg): void {
    const bytes = lsnBytes(lsn);
    if (bytes !== null && bytes > this.seen) this.seen = bytes;
    this.seenOn = on;
    this.seenAt = on.requests;
  }

  /** The primary's requests since `seen` was last brought up to date may have written: ask where its log ends. */
  private bringSeenUpToDate(): void {
    const p = this.primary.current();
    if (!p || (p === this.seenOn && p.requests === this.seenAt)) return;
    try {
      const [r] = p.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      const bytes = lsnBytes(r?.lsn);
      if (bytes !== null && bytes > this.seen) this.seen = bytes;
    } catch {
      // The primary is gone: what it did not send its replicas, no replica will ever show.
    }
    this.seenOn = p;
    this.seenAt = p.requests;
  }

  /**
   * Runs one read outside a transaction: on a replica that has replayed what this store has seen,
   * else on the primary. A replica lost during the read is set aside and the read runs again on
   * the next choice; a failure of the statement itself is the caller's.
   */
  query<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []): T[] {
    for (;;) {
      const choice = this.choose(sql);
      if (!choice) return this.primary.connect().query<T>(sql, params);
      try {
        const rows = choice.pg.query<T>(choice.sql, params);
        choice.replica.served++;
        return rows;
      } catch (err) {
        if (!lostConnection(err)) throw err;
        this.setAside(choice.replica, err);
      }
    }
  }

  /**
   * The connection a snapshot of several reads (PgStore.readConsistent) runs on, chosen as one read
   * is; with how to write a statement for it (the JSON functions' names).
   */
  pinned(): { pg: SyncPg; sql: (text: string) => string | null; replica: boolean } {
    const choice = this.choose('');
    if (!choice) return { pg: this.primary.connect(), sql: (text) => text, replica: false };
    return { pg: choice.pg, sql: (text) => this.onReplica(choice.replica, text), replica: true };
  }

  /** Sets a replica aside after its connection failed (PgStore.readConsistent's retry). */
  lost(pg: SyncPg, err: unknown): void {
    const replica = this.replicas.find((r) => r.pg === pg);
    if (replica) this.setAside(replica, err);
  }

  /** The replica and the statement's text for it, or null: read the primary. */
  private choose(sql: string): { replica: Replica; pg: SyncPg; sql: string } | null {
    if (this.replicas.length === 0) return null;
    this.bringSeenUpToDate();
    const now = Date.now();
    for (const replica of this.replicas) {
      if (replica.downUntil > now) continue;
      const pg = this.connected(replica);
      if (!pg) continue;
      let text: string | null;
      let ready: boolean;
      try {
        text = this.onReplica(replica, sql);
        if (text === null) return null;
        ready = this.caughtUp(replica, pg);
      } catch (err) {
        if (!lostConnection(err)) throw err;
        this.setAside(replica, err);
        continue;
      }
      if (!ready) {
        replica.fellBack++;
        return null;
      }
      return { replica, pg, sql: text };
    }
    for (const r of this.replicas) r.fellBack++;
    return null;
  }

  private connected(replica: Replica): SyncPg | null {
    if (replica.pg && !replica.pg.isLost) return replica.pg;
    if (replica.pg) {
      replica.pg.close();
      replica.pg = null;
    }
    try {
      const pg = SyncPg.connect(replica.url.connection);
      const [r] = pg.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
      if (!r?.standby) this.warn(`replica-primary:${replica.url.shown}`, `replica ${replica.url.shown} is not a standby (pg_is_in_recovery() is false): reads go to it all the same; if it was promoted, point the store's URL at it`);
      replica.pg = pg;
    } catch (err) {
      this.setAside(replica, err);
      return null;
    }
    if (replica.lastError !== null) {
      this.warn(`replica-back:${replica.url.shown}:${Date.now()}`, `replica ${replica.url.shown} answers again: reads go to it`);
      replica.lastError = null;
    }
    replica.downUntil = 0;
    replica.retryMs = FIRST_RETRY_MS;
    return replica.pg;
  }

  private setAside(replica: Replica, err: unknown): void {
    const message = (err as Error)?.message ?? String(err);
    if (replica.lastError === null) {
      this.warn(`replica-down:${replica.url.shown}:${Date.now()}`, `replica ${replica.url.shown} cannot be read (${message}): reads go to ${this.fallbackName(replica)} until it answers again`);
    }
    replica.lastError = message;
    replica.pg?.close();
    replica.pg = null;
    replica.downUntil = Date.now() + replica.retryMs;
    replica.retryMs = Math.min(replica.retryMs * 2, LAST_RETRY_MS);
  }

  private fallbackName(replica: Replica): string {
    const next = this.replicas.find((r) => r !== replica && r.lastError === null);
    return next ? `replica ${next.url.shown}` : 'the primary';
  }

  /**
   * Whether the replica has replayed what this store has seen; waits for it at most waitMs (unless
   * the last wait timed out and it has not caught up since).
   */
  private caughtUp(replica: Replica, pg: SyncPg): boolean {
    if (replica.replayed >= this.seen) return true;
    const deadline = Date.now() + (replica.lagging ? 0 : this.waitMs);
    for (;;) {
      const [r] = pg.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      const bytes = lsnBytes(r?.lsn);
      // Not a standby (promoted, or named by mistake): it has whatever it has.
      if (bytes === null) {
        replica.replayed = this.seen;
        return true;
      }
      if (bytes > replica.replayed) replica.replayed = bytes;
      if (replica.replayed >= this.seen) {
        if (replica.lagging) this.warn(`replica-caught-up:${replica.url.shown}:${Date.now()}`, `replica ${replica.url.shown} has caught up: reads go to it again`);
        replica.lagging = false;
        return true;
      }
      if (Date.now() >= deadline) break;
      sleepMs(POLL_MS);
    }
    if (!replica.lagging) {
      this.warn(
        `replica-lagging:${replica.url.shown}:${Date.now()}`,
        `replica ${replica.url.shown} had not replayed this session's last write after ${this.waitMs} ms: reads go to the primary until it has`,
      );
    }
    replica.lagging = true;
    return false;
  }

  /** The statement's text on a replica: the JSON functions named in the store's schema; null when the schema lacks them (read the primary). */
  private onReplica(replica: Replica, sql: string): string | null {
    if (!sql.includes(PG_TEMP_JSON_PREFIX)) return sql;
    if (replica.jsonFunctions === null) {
      const [r] = replica.pg!.query<{ ok: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS ok', [`${ident(this.schema)}.mnemo_json_field(text,text)`]);
      replica.jsonFunctions = r?.ok === true;
    }
    return replica.jsonFunctions ? sql.split(PG_TEMP_JSON_PREFIX).join(`${ident(this.schema)}.mnemo_json_`) : null;
  }

  /**
   * Each replica's state and lag: how many bytes of the primary's log it has not replayed
   * (`pg_current_wal_lsn()` on the primary less `pg_last_wal_replay_lsn()` on the replica), and how
   * old the last transaction it replayed is when it is behind (0 when it has replayed everything).
   * Asks each replica (and the primary, once) now; a replica set aside is tried again.
   */
  status(): PgReplicaStatus[] {
    let primaryLsn: bigint | null = null;
    let primaryError: string | null = null;
    try {
      const [r] = this.primary.connect().query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      primaryLsn = lsnBytes(r?.lsn);
    } catch (err) {
      primaryError = (err as Error).message;
    }
    return this.replicas.map((replica) => {
      const base = { url: replica.url.shown, served: replica.served, fell_back: replica.fellBack, wait_ms: this.waitMs };
      if (replica.downUntil > Date.now()) return { ...base, state: 'down', error: replica.lastError, lag_bytes: null, lag_seconds: null, replay_lsn: null };
      const pg = this.connected(replica);
      if (!pg) return { ...base, state: 'down', error: replica.lastError, lag_bytes: null, lag_seconds: null, replay_lsn: null };
      try {
        const [r] = pg.query<{ lsn: string | null; age: number | null }>(
          `SELECT pg_last_wal_replay_lsn()::text AS lsn,
             CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                  ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 END AS age`,
        );
        const replay = lsnBytes(r?.lsn);
        if (replay !== null && replay > replica.replayed) replica.replayed = replay;
        const lagBytes = replay !== null && primaryLsn !== null ? Number(primaryLsn > replay ? primaryLsn - replay : 0n) : null;
        const lagSeconds = lagBytes === 0 ? 0 : (r?.age ?? null);
        const state = replay === null ? 'not_standby' : replica.lagging ? 'behind' : 'streaming';
        return { ...base, state, error: primaryError === null ? null : `the primary cannot be reached (${primaryError}): lag unknown`, lag_bytes: lagBytes, lag_seconds: lagSeconds, replay_lsn: r?.lsn ?? null };
      } catch (err) {
        if (!lostConnection(err)) throw err;
        this.setAside(replica, err);
        return { ...base, state: 'down', error: replica.lastError, lag_bytes: null, lag_seconds: null, replay_lsn: null };
      }
    });
  }

  close(): void {
    for (const r of this.replicas) {
      r.pg?.close();
      r.pg = null;
    }
  }
}

/** Whether an error is a lost connection (the server or the link gone), not a statement's own failure. */
export function lostConnection(err: unknown): boolean {
  if (!(err instanceof MnemoError)) return false;
  const sqlstate = err.details?.['sqlstate'];
  return typeof sqlstate === 'string' && isConnectionFailure(sqlstate);
}
