/**
 * A synchronous PostgreSQL connection, so that a PostgreSQL adapter can implement the same
 * synchronous store port the SQLite adapter does (docs/architecture.md, "A network backend").
 *
 * `pg` answers with promises. Rather than make every port method, and everything above the port,
 * asynchronous, the queries run in a worker thread and the caller waits for each answer: the
 * request goes over a MessagePort, the caller sleeps in Atomics.wait on a shared flag that the
 * worker raises when its reply is posted, then reads the reply with receiveMessageOnPort. The
 * caller blocks for one round trip, as it blocks for a disk read with better-sqlite3 today; the
 * recall path makes no round trip of its own (it ranks over in-memory indexes), so what blocks is
 * the writes and the indexes' catch-up. `npm run bench -- pg-bridge` measures a round trip both ways.
 *
 * (synckit does this too, and was tried first: under Node 20 it cannot start a TypeScript worker
 * through tsx, which only registers through --import, and workers do not take that; so the worker
 * is started here from the text of its function, sync-pg-worker.ts, which is JavaScript by then.)
 *
 * A write whose result nobody reads can be deferred (defer): it goes in the same request as the
 * connection's next statement, so a run of writes and the read after them cost one round trip.
 *
 * One worker serves every connection of the process; each SyncPg is one connection in it, so a
 * transaction (BEGIN … COMMIT) stays on its connection.
 */
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { MnemoError, type ErrorCode } from '../../errors.js';
import type { PgReply, PgRequestBody, PgStatement } from './sync-pg-protocol.js';
import { serveSyncPg } from './sync-pg-worker.js';
import { nulTextError } from './pg-nul-text.js';
import { pgTimeouts, statementHead, type PgTimeouts } from './pg-timeouts.js';

/** Longest wait for one reply; a query that takes longer fails with code 'timeout' (the connection is then unusable). */
const REPLY_TIMEOUT_MS = 120_000;

interface Bridge {
  port: MessagePort;
  /** Slot 0: how many replies the worker has posted. Slot 1 stays 0: a place to sleep a millisecond. */
  signal: BigInt64Array;
  /** How many requests this side has sent (the last request's `seq`). */
  sent: number;
}

let bridge: Bridge | null = null;
let nextId = 1;
/** Requests sent over the bridge since the process started: what a benchmark or test counts round trips with. */
let roundTrips = 0;

/** How many requests (each one cross-thread round trip) this process has sent to the worker. */
export function bridgeRoundTrips(): number {
  return roundTrips;
}

/**
 * The worker's program: `pg` (found from here, wherever the process was started) handed to
 * serveSyncPg. Under tsx the function's text calls esbuild's `__name` helper, which only the
 * module's own scope defines; the worker gets a stand-in that leaves the name as it is.
 */
function workerSource(): string {
  const pgPath = createRequire(import.meta.url).resolve('pg');
  return [
    'const __name = (fn) => fn;',
    "const { workerData } = require('node:worker_threads');",
    `(${serveSyncPg.toString()})(require(${JSON.stringify(pgPath)}), workerData.port, workerData.flag);`,
  ].join('\n');
}

function startBridge(): Bridge {
  const flag = new SharedArrayBuffer(16);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(workerSource(), { eval: true, workerData: { port: port2, flag }, transferList: [port2] });
  // Neither keeps the process alive: a CLI run ends when its work does.
  worker.unref();
  port1.unref();
  return { port: port1, signal: new BigInt64Array(flag), sent: 0 };
}

/**
 * Sends one request and waits for its own reply. Replies are numbered: a reply the worker has
 * counted may not yet be readable on this side (it was seen under load: the flag up, the queue
 * still empty), so this looks again until it is; and a late reply to a request that timed out is
 * dropped rather than taken as the answer to the next one, which would shift every answer after it
 * by one (rows of another query read as this one's).
 */
function send(body: PgRequestBody): PgReply {
  bridge ??= startBridge();
  const { port, signal } = bridge;
  const seq = ++bridge.sent;
  roundTrips++;
  port.postMessage({ ...body, seq });
  const deadline = Date.now() + REPLY_TIMEOUT_MS;
  for (;;) {
    const posted = Atomics.load(signal, 0);
    if (posted >= BigInt(seq)) {
      const got = receiveMessageOnPort(port);
      if (got) {
        const reply = got.message as PgReply;
        if (reply.seq === seq) return reply;
        continue; // an earlier request's late reply
      }
      Atomics.wait(signal, 1, 0n, 1);
    } else {
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(signal, 0, posted, left);
    }
    if (Date.now() > deadline) break;
  }
  return { ok: false, code: 'timeout', message: `no answer from PostgreSQL within ${REPLY_TIMEOUT_MS / 1000} s` };
}

/** A PostgreSQL error, typed: `details.sqlstate` is the server's code (or connection / closed / timeout). */
function failure(reply: { code: string; message: string }, sql?: string, timeouts?: PgTimeouts): MnemoError {
  const waited = timeouts ? timeoutFailure(reply, sql, timeouts) : null;
  if (waited) return waited;
  return new MnemoError(errorCodeOf(reply.code), `PostgreSQL: ${reply.message}`, { sqlstate: reply.code, ...(sql ? { sql: sql.slice(0, 200) } : {}) });
}

/**
 * A statement the server stopped because it waited too long (pg-timeouts.ts): `busy`, naming the
 * statement that waited, what for, and how long it was allowed; the caller may try again.
 */
function timeoutFailure(reply: { code: string; message: string }, sql: string | undefined, t: PgTimeouts): MnemoError | null {
  const lock = reply.code === '55P03' && /lock timeout/i.test(reply.message);
  const statement = reply.code === '57014' && /statement timeout/i.test(reply.message);
  if (!lock && !statement) return null;
  const what = sql ? `the statement ${statementHead(sql)}` : 'a statement';
  const message = lock
    ? `PostgreSQL: ${what} waited longer than lock_timeout (${t.lockMs} ms) for a lock another connection held, so it was not applied. Try again, or raise lock_timeout in the store URL (milliseconds)`
    : `PostgreSQL: ${what} ran longer than statement_timeout (${t.statementMs} ms) and was stopped, so it was not applied. Try again, or raise statement_timeout in the store URL (milliseconds)`;
  return new MnemoError('busy', message, { sqlstate: reply.code, waited: lock ? 'lock' : 'statement', timeout_ms: lock ? t.lockMs : t.statementMs, ...(sql ? { sql: sql.slice(0, 200) } : {}) });
}

/**
 * Another writer in the way (serialization failure, deadlock, lock not available) is 'busy', as a
 * locked SQLite file is: the caller may try again. A broken constraint is 'conflict'. A privilege
 * the role lacks (an agent's role past what it may do) is 'permission'; a value the store's checks
 * refuse (a setting, pg-settings-ddl.ts) is 'bad_input'. The rest, connection failures included, is
 * 'internal'.
 */
export function errorCodeOf(sqlstate: string): ErrorCode {
  if (sqlstate === '40001' || sqlstate === '40P01' || sqlstate === '55P03') return 'busy';
  if (sqlstate.startsWith('23')) return 'conflict';
  if (sqlstate === '42501') return 'permission';
  if (sqlstate === '22023') return 'bad_input';
  return 'internal';
}

/** How long a connection attempt may take by default: MNEMO_PG_CONNECT_TIMEOUT_MS, else 5 s. */
export function connectTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env['MNEMO_PG_CONNECT_TIMEOUT_MS']);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 120_000) : 5_000;
}

/**
 * Whether a failure means the connection (or the server) is gone rather than the statement wrong:
 * the client's own codes (ECONNREFUSED, ENOENT for a Unix socket no server listens on, …, and
 * 'connection' for a client that ended), SQLSTATE class 08 (connection exception), 57P01 to 57P03
 * (the server shutting down or not yet accepting connections), and a reply that never came.
 */
export function isConnectionFailure(code: string): boolean {
  return code === 'connection' || code === 'closed' || code === 'timeout' || /^E[A-Z]+$/.test(code) || code.startsWith('08') || /^57P0[123]$/.test(code);
}

export class SyncPg {
  private closed = false;
  /** The connection's transaction state after its last request (the worker says): 'T' or 'E' inside one. */
  private txn: 'I' | 'T' | 'E' = 'I';
  /** Set when a request failed because the connection or the server is gone: this connection is done with. */
  private lost = false;
  /** Requests this connection has sent: a replica router counts the primary's to know whether it wrote since it last asked where its log stands. */
  private sent = 0;
  /** Writes queued by defer(), sent ahead of the next query. */
  private deferred: PgStatement[] = [];
  /** A BEGIN queued by deferBegin() and not sent yet: the server knows of no transaction, so there is nothing to roll back. */
  private beginQueued = false;
  /** Called before each statement is sent: the last chance to defer() writes held back until then. */
  beforeSend: (() => void) | null = null;
  /** Rewrites each statement's text before it is sent (a hot standby's connection names the store's own functions). */
  rewrite: ((sql: string) => string) | null = null;
  /** Turns the failure that lost this connection into the error its caller sees (a store names its primary). */
  describeLoss: ((failure: MnemoError) => MnemoError) | null = null;

  private constructor(
    private readonly id: number,
    /** The lock_timeout and statement_timeout this connection set (pg-timeouts.ts). */
    readonly timeouts: PgTimeouts,
  ) {}

  /**
   * Connects to `url` (postgres://…; a Unix socket as ?host=/dir); throws a typed error naming what
   * failed. An attempt takes at most `connectTimeoutMs` (connectTimeoutMs()).
   */
  static connect(url: string, opts: { connectTimeoutMs?: number } = {}): SyncPg {
    const id = nextId++;
    const timeouts = pgTimeouts(url);
    const reply = send({ op: 'connect', id, url, connectTimeoutMs: opts.connectTimeoutMs ?? connectTimeoutMs(), lockMs: timeouts.lockMs, statementMs: timeouts.statementMs });
    if (!reply.ok) throw failure(reply);
    return new SyncPg(id, timeouts);
  }

  /** Inside a transaction: one sent and not ended, or a BEGIN or writes queued to go with the next statement. */
  get inTransaction(): boolean {
    return this.txn !== 'I' || this.beginQueued || this.deferred.length > 0;
  }

  /** Whether a request failed because the connection or its server is gone (isConnectionFailure): connect again. */
  get isLost(): boolean {
    return this.lost;
  }

  /** How many requests this connection has sent. */
  get requests(): number {
    return this.sent;
  }

  /** One request on this connection; notes its transaction state, and whether the connection was lost. */
  private request(body: PgRequestBody): PgReply {
    this.sent++;
    const reply = send(body);
    if (reply.txn) this.txn = reply.txn;
    if (!reply.ok && isConnectionFailure(reply.code)) {
      this.lost = true;
      this.txn = 'I';
    }
    return reply;
  }

  /** Runs one statement ($1, $2 … placeholders) and returns its rows; the writes deferred before it go first, in the same request. */
  query<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params: readonly unknown[] = []): T[] {
    const sql = this.rewrite ? this.rewrite(text) : text;
    if (this.closed) throw failure({ code: 'closed', message: 'this PostgreSQL connection is closed' }, sql);
    const nul = nulTextError(params);
    if (nul) throw nul;
    this.beforeSend?.();
    this.beginQueued = false;
    if (this.deferred.length === 0) {
      const reply = this.request({ op: 'query', id: this.id, sql, params });
      if (!reply.ok) throw this.lossOr(failure(reply, sql, this.timeouts));
      return reply.rows as T[];
    }
    const statements = [...this.deferred, { sql, params }];
    this.deferred = [];
    const reply = this.request({ op: 'batch', id: this.id, statements });
    if (reply.ok) return reply.rows as T[];
    const at = reply.failedAt ?? statements.length - 1;
    if (at === statements.length - 1) throw this.lossOr(failure(reply, sql, this.timeouts));
    // The statement that failed was written earlier and deferred: name it, not the read that sent it.
    throw this.lossOr(failure({ code: reply.code, message: `${reply.message} (in a write deferred to the next statement)` }, statements[at]!.sql, this.timeouts));
  }

  /** The error to throw: `err`, or what describeLoss makes of it when it lost the connection. */
  private lossOr(err: MnemoError): MnemoError {
    return this.lost && this.describeLoss ? this.describeLoss(err) : err;
  }

  /**
   * Queues a write whose result nobody reads; it is sent with the next query(), ahead of it, in one
   * request. Inside a transaction only (its COMMIT is the query that sends the last ones), so that
   * a failure still fails the transaction that made it: query() throws it, naming the statement.
   */
  defer(text: string, params: readonly unknown[] = []): void {
    const sql = this.rewrite ? this.rewrite(text) : text;
    if (this.closed) throw failure({ code: 'closed', message: 'this PostgreSQL connection is closed' }, sql);
    const nul = nulTextError(params);
    if (nul) throw nul;
    this.deferred.push({ sql, params });
  }

  /** Forgets the deferred writes not yet sent (the transaction that made them rolls back), a deferred BEGIN with them. */
  discardDeferred(): void {
    this.deferred = [];
    this.beginQueued = false;
  }

  /** Queues the BEGIN of a transaction, sent with its first statement (defer); rollback() knows whether it went. */
  deferBegin(sql = 'BEGIN'): void {
    this.defer(sql);
    this.beginQueued = true;
  }

  /**
   * Ends the transaction without its writes: the deferred ones are forgotten, and ROLLBACK is sent
   * only if BEGIN was: a transaction abandoned before its first statement has nothing on the server
   * to end (a ROLLBACK then costs a round trip and logs "there is no transaction in progress").
   * Returns whether it was sent.
   */
  rollback(): boolean {
    const begun = !this.beginQueued;
    this.discardDeferred();
    // A lost connection's transaction ended with it on the server: there is nothing to roll back.
    if (!begun || this.closed || this.lost) return false;
    this.query('ROLLBACK');
    return true;
  }

  /** Runs fn inside BEGIN … COMMIT on this connection; a throw rolls back and rethrows. */
  transaction<T>(fn: () => T): T {
    this.query('BEGIN');
    try {
      const result = fn();
      this.query('COMMIT');
      return result;
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.discardDeferred();
    this.request({ op: 'end', id: this.id });
  }
}
