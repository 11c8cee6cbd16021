/** What SyncPg (sync-pg.ts) and its worker (sync-pg-worker.ts) say to each other. */
export type PgRequestBody =
  /**
   * `connectTimeoutMs`: how long a connection attempt may take (an unreachable host must not hang a caller).
   * `lockMs` / `statementMs`: the session's lock_timeout and statement_timeout (pg-timeouts.ts); the URL's own settings win.
   */
  | { op: 'connect'; id: number; url: string; connectTimeoutMs: number; lockMs: number; statementMs: number }
  | { op: 'query'; id: number; sql: string; params: readonly unknown[] }
  /** Statements run in order on one connection, stopping at the first that fails; the reply holds the last one's rows. */
  | { op: 'batch'; id: number; statements: readonly PgStatement[] }
  | { op: 'end'; id: number };

export interface PgStatement {
  sql: string;
  params: readonly unknown[];
}

/** `seq` numbers the requests of one bridge; its reply carries the same number. */
export type PgRequest = PgRequestBody & { seq: number };

/**
 * `txn`: the connection's transaction state after the request, as `pg` tracks it ('I' idle, 'T' in
 * a transaction, 'E' in a failed one): how a caller knows a read may go to another connection.
 */
export type PgReply = { seq?: number; txn?: 'I' | 'T' | 'E' } & (
  | { ok: true; rows: Record<string, unknown>[]; rowCount?: number }
  /** `code`: the server's SQLSTATE (e.g. 23505), or 'connection' / 'closed' / 'timeout' for the client's own failures. */
  | { ok: false; code: string; message: string; /** In a batch: the index of the statement that failed. */ failedAt?: number }
);
