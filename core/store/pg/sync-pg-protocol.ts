/** What SyncPg (sync-pg.ts) and its worker (sync-pg-worker.ts) say to each other. */
export type PgRequest =
  | { op: 'connect'; id: number; url: string }
  | { op: 'query'; id: number; sql: string; params: readonly unknown[] }
  | { op: 'end'; id: number };

export type PgReply =
  | { ok: true; rows: Record<string, unknown>[]; rowCount?: number }
  /** `code`: the server's SQLSTATE (e.g. 23505), or 'connection' / 'closed' / 'timeout' for the client's own failures. */
  | { ok: false; code: string; message: string };
