/**
 * The worker behind SyncPg (sync-pg.ts): it holds the PostgreSQL connections, made with `pg`, and
 * answers one request at a time while the calling thread waits on a shared flag. Errors come back
 * as data (the server's SQLSTATE code and message), never as thrown objects, so the caller can
 * type them.
 *
 * The worker is started from this function's text (sync-pg.ts), already JavaScript however the
 * process runs (compiled, or from source under tsx), so the worker loads nothing but `pg`: a
 * worker that imported this file from source had to register tsx first, which took a second or two
 * of every PostgreSQL process's start on a loaded machine. So the function reaches nothing outside
 * itself: what it needs comes in as arguments.
 */
import type pg from 'pg';
import type { MessagePort } from 'node:worker_threads';
import type { PgReply, PgRequest, PgStatement } from './sync-pg-protocol.js';

export function serveSyncPg(pgModule: typeof pg, port: MessagePort, flag: SharedArrayBuffer): void {
  /** Slot 0 counts the replies posted (see sync-pg.ts, send). */
  const signal = new BigInt64Array(flag);
  const clients = new Map<number, pg.Client>();

  function failed(err: unknown, failedAt?: number): PgReply {
    const e = err as { code?: string; message?: string };
    return { ok: false, code: typeof e.code === 'string' ? e.code : 'connection', message: e.message ?? String(err), ...(failedAt === undefined ? {} : { failedAt }) };
  }

  /**
   * `MNEMO_PG_PREPARE=off` sends every statement unnamed: a pooler in transaction mode (PgBouncer
   * before 1.21) hands a session's statements to other server connections, which do not know the names.
   */
  const prepare = process.env['MNEMO_PG_PREPARE'] !== 'off';
  /**
   * Names per connection at most: the adapter's own statements are a few hundred at most, and a
   * text built per call (a batch's tuples, an IN list's length) is named only if it recurs. Past
   * the cap, the name used least recently is deallocated for the new one.
   */
  const PREPARED_PER_CONNECTION = 300;
  /**
   * Texts run once and not named, remembered per connection so that a second use names them:
   * bounded in number and in characters (a batch's text runs to tens of kilobytes), oldest dropped.
   */
  const SEEN_TEXTS = 1000;
  const SEEN_CHARS = 1_000_000;
  /** Per connection: what queryOf named and saw, and the names to deallocate. */
  interface Naming {
    /** Each named text's name, the least recently used first. */
    names: Map<string, string>;
    /** Names are never reused: `pg` refuses a name it has parsed with another text. */
    next: number;
    /** Texts with parameters run once, unnamed, oldest first; their characters in all. */
    seen: Set<string>;
    seenChars: number;
    /** Names let go (evicted, or their plan went stale) that the server still holds until a DEALLOCATE can run (not in a failed transaction). */
    stale: string[];
  }
  const naming = new Map<pg.Client, Naming>();

  function namingOf(client: pg.Client): Naming {
    let n = naming.get(client);
    if (!n) naming.set(client, (n = { names: new Map(), next: 1, seen: new Set(), seenChars: 0, stale: [] }));
    return n;
  }

  /** Whether `text` ran before (it is then forgotten here, about to be named); if not, it is remembered. */
  function seenBefore(n: Naming, text: string): boolean {
    if (n.seen.delete(text)) {
      n.seenChars -= text.length;
      return true;
    }
    n.seen.add(text);
    n.seenChars += text.length;
    for (const oldest of n.seen) {
      if (n.seen.size <= SEEN_TEXTS && n.seenChars <= SEEN_CHARS) break;
      n.seen.delete(oldest);
      n.seenChars -= oldest.length;
    }
    return false;
  }

  /**
   * A statement with parameters under a name from its second use on, so the server parses and
   * analyses its text once per connection rather than at each execution (and `pg` sends a Bind and
   * an Execute instead of a Parse as well). Naming on the second use keeps the names for the texts
   * that recur: the first texts a long-lived process sees may be one-off batch shapes. One without
   * parameters goes over the simple protocol, which may hold several statements and cannot be named.
   */
  function queryOf(client: pg.Client, statement: PgStatement): pg.QueryConfig {
    const text = statement.sql;
    const values = statement.params as unknown[];
    if (values.length === 0 || !prepare) return { text, values };
    const n = namingOf(client);
    let name = n.names.get(text);
    if (name !== undefined) {
      // Now the most recently used: last in the map's order.
      n.names.delete(text);
      n.names.set(text, name);
      return { name, text, values };
    }
    if (!seenBefore(n, text)) return { text, values };
    if (n.names.size >= PREPARED_PER_CONNECTION) {
      const [lruText, lruName] = n.names.entries().next().value!;
      forgetName(client, lruText, lruName);
    }
    n.names.set(text, (name = `mnemo_${n.next++}`));
    return { name, text, values };
  }

  /** `pg`'s record of the names it has parsed on a connection (it sends a Parse for a name once): internal to `pg` 8, which has no call to forget one. */
  function parsedBy(client: pg.Client): Record<string, string> {
    return (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
  }

  /** Stops using `name` for `text`; the server's statement goes at the next deallocateStale (run's). */
  function forgetName(client: pg.Client, text: string, name: string): void {
    const n = namingOf(client);
    n.names.delete(text);
    // Only a name the server parsed is there to deallocate (DEALLOCATE of an unknown name fails, and with it a transaction).
    if (parsedBy(client)[name] !== undefined) n.stale.push(name);
    delete parsedBy(client)[name];
  }

  async function deallocateStale(client: pg.Client): Promise<void> {
    const n = namingOf(client);
    while (n.stale.length > 0) {
      await client.query(`DEALLOCATE ${n.stale[0]!}`);
      n.stale.shift();
    }
  }

  /**
   * Runs one statement. A prepared statement's result columns are fixed when it is prepared: if
   * another connection changes a table it reads (another process's newer build adds a column),
   * its next execution fails with SQLSTATE 0A000, "cached plan must not change result type". The
   * name is then dropped, and outside a transaction the statement is prepared again and run once
   * more; inside one the error has aborted the transaction, so it reaches the caller, whose next
   * try prepares the statement again. (Every 0A000 of a named statement is taken so, whatever the
   * server's language: another cause fails again on the second try.)
   */
  async function run(client: pg.Client, statement: PgStatement): Promise<pg.QueryResult> {
    const n = namingOf(client);
    // The connection's state before this statement; after an error `pg` answers before the server says it again.
    const outside = client.getTransactionStatus() === 'I';
    const config = queryOf(client, statement);
    // Not before a statement without parameters: that may be the ROLLBACK of a failed transaction, where a DEALLOCATE would fail.
    if (n.stale.length > 0 && statement.params.length > 0 && client.getTransactionStatus() !== 'E') await deallocateStale(client);
    try {
      return resultOf(await client.query(config));
    } catch (err) {
      if (config.name === undefined || (err as { code?: unknown }).code !== '0A000') throw err;
      forgetName(client, statement.sql, config.name);
      if (!outside) throw err;
      await deallocateStale(client);
      return resultOf(await client.query(queryOf(client, statement)));
    }
  }

  /**
   * A text of several statements without parameters (the simple query protocol) gives one result
   * per statement: its rows are the last row-returning statement's (`SELECT …; COMMIT` answers the SELECT).
   */
  function resultOf(res: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
    if (!Array.isArray(res)) return res;
    return [...res].reverse().find((r) => r.fields.length > 0) ?? res[res.length - 1]!;
  }

  /** One request, many statements (SyncPg's deferred writes and the read that flushes them): one cross-thread round trip for all. */
  async function runBatch(client: pg.Client, statements: readonly PgStatement[]): Promise<PgReply> {
    let last: pg.QueryResult | null = null;
    for (let i = 0; i < statements.length; i++) {
      try {
        last = await run(client, statements[i]!);
      } catch (err) {
        return failed(err, i);
      }
    }
    return { ok: true, rows: (last?.rows ?? []) as Record<string, unknown>[], rowCount: last?.rowCount ?? 0 };
  }

  async function handle(req: PgRequest): Promise<PgReply> {
    try {
      if (req.op === 'connect') {
        // keepAlive: a server that vanishes without closing the socket is found out, not waited on forever.
        // lock_timeout and statement_timeout are set at connect, in the startup packet: no statement waits without bound (pg-timeouts.ts). `pg` lets the URL's own values win.
        const client = new pgModule.Client({
          connectionString: req.url,
          application_name: 'mnemo',
          connectionTimeoutMillis: req.connectTimeoutMs,
          keepAlive: true,
          lock_timeout: req.lockMs,
          statement_timeout: req.statementMs,
        });
        // A server that goes away (stopped, restarted, a standby promoted) errors an idle client
        // outside any query; unheard, that error would end this worker and every connection in it.
        // The next query on the client fails instead, and the caller connects again.
        client.on('error', () => undefined);
        try {
          await client.connect();
        } catch (err) {
          void client.end().catch(() => undefined);
          throw err;
        }
        clients.set(req.id, client);
        return { ok: true, rows: [] };
      }
      const client = clients.get(req.id);
      if (!client) return { ok: false, code: 'closed', message: 'this PostgreSQL connection is closed' };
      if (req.op === 'end') {
        clients.delete(req.id);
        naming.delete(client);
        await client.end();
        return { ok: true, rows: [] };
      }
      if (req.op === 'batch') return await runBatch(client, req.statements);
      const res = await run(client, { sql: req.sql, params: req.params });
      return { ok: true, rows: res.rows as Record<string, unknown>[], rowCount: res.rowCount ?? 0 };
    } catch (err) {
      return failed(err);
    }
  }

  /** The connection's transaction state after a request ('I', 'T' or 'E'); absent when there is no connection. */
  function txnOf(id: number): 'I' | 'T' | 'E' | undefined {
    const status = clients.get(id)?.getTransactionStatus();
    return status === 'I' || status === 'T' || status === 'E' ? status : undefined;
  }

  port.on('message', (req: PgRequest) => {
    void handle(req).then((reply) => {
      const txn = txnOf(req.id);
      port.postMessage({ ...reply, seq: req.seq, ...(txn ? { txn } : {}) });
      Atomics.add(signal, 0, 1n);
      Atomics.notify(signal, 0);
    });
  });
}
