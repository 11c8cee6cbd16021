/**
 * The statements a piece of code sends to PostgreSQL over the synchronous bridge (SyncPg.query),
 * whitespace folded: what a round-trip test counts and reads.
 */
import { SyncPg } from '../../core/store/pg/sync-pg.js';

export async function statementsOf(fn: () => unknown): Promise<string[]> {
  const sent: string[] = [];
  const query = SyncPg.prototype.query;
  SyncPg.prototype.query = function (this: SyncPg, sql: string, params?: readonly unknown[]) {
    sent.push(sql.replace(/\s+/g, ' ').trim());
    return query.call(this, sql, params);
  } as typeof query;
  try {
    await fn();
  } finally {
    SyncPg.prototype.query = query;
  }
  return sent;
}
