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
  /** Per connection: the name each statement text was prepared under (queryOf). */
  const prepared = new Map<pg.Client, Map<string, string>>();
  /** Texts prepared per connection at most: the adapter's statements are a few hundred at most, texts built per call (a batch's tuples) get no name past it. */
  const PREPARED_PER_CONNECTION = 300;

  /**
   * A statement with parameters under a name, so the server parses and analyses its text once per
   * connection rather than at each execution (and `pg` sends a Bind and an Execute instead of a
   * Parse as well). One without parameters goes over the simple protocol, which may hold several
   * statements and cannot be named.
   */
  function queryOf(client: pg.Client, statement: PgStatement): pg.QueryConfig {
    const values = statement.params as unknown[];
    if (values.length === 0 || !prepare) return { text: statement.sql, values };
    let names = prepared.get(client);
    if (!names) prepared.set(client, (names = new Map()));
    let name = names.get(statement.sql);
    if (name === undefined && names.size < PREPARED_PER_CONNECTION) names.set(statement.sql, (name = `mnemo_${names.size + 1}`));
    return name === undefined ? { text: statement.sql, values } : { name, text: statement.sql, values };
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
        last = resultOf(await client.query(queryOf(client, statements[i]!)));
      } catch (err) {
        return failed(err, i);
      }
    }
    return { ok: true, rows: (last?.rows ?? []) as Record<string, unknown>[], rowCount: last?.rowCount ?? 0 };
  }

  async function handle(req: PgRequest): Promise<PgReply> {
    try {
      if (req.op === 'connect') {
        const client = new pgModule.Client({ connectionString: req.url, application_name: 'mnemo' });
        await client.connect();
        clients.set(req.id, client);
        return { ok: true, rows: [] };
      }
      const client = clients.get(req.id);
      if (!client) return { ok: false, code: 'closed', message: 'this PostgreSQL connection is closed' };
      if (req.op === 'end') {
        clients.delete(req.id);
        prepared.delete(client);
        await client.end();
        return { ok: true, rows: [] };
      }
      if (req.op === 'batch') return await runBatch(client, req.statements);
      const res = resultOf(await client.query(queryOf(client, { sql: req.sql, params: req.params })));
      return { ok: true, rows: res.rows as Record<string, unknown>[], rowCount: res.rowCount ?? 0 };
    } catch (err) {
      return failed(err);
    }
  }

  port.on('message', (req: PgRequest) => {
    void handle(req).then((reply) => {
      port.postMessage({ ...reply, seq: req.seq });
      Atomics.add(signal, 0, 1n);
      Atomics.notify(signal, 0);
    });
  });
}
