/**
 * nooa's maintenance log on PostgreSQL (maintenance-log.ts has the rules and SQLite's reads): the
 * log newest first, each reflection pass matched to its journal change by plan id.
 */
import { pyDumps } from '../../model/pyjson.js';
import { maintenanceEntries, type MaintenanceEntry } from '../sqlite/maintenance-log.js';
import { pgJsonField } from './pg-json-sql.js';
import { intOf } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** `withJournal`: the store has Mnemo's journal (a nooa-only store has only the log). */
export function readPgMaintenanceHistory(conn: PgStoreConnection, limit: number, withJournal: boolean): MaintenanceEntry[] {
  const db = conn.db();
  const rows = db
    .query(`SELECT ts, kind, report FROM ${conn.table('maintenance_log')} ORDER BY ts DESC, rowid DESC LIMIT $1`, [limit])
    .map((r) => ({ ts: r['ts'] as number, kind: r['kind'] as string, report: r['report'] as string }));
  const changeOf = (planId: string) => {
    const [c] = db.query(`SELECT id, state FROM ${conn.table('mnemo_journal')} WHERE kind = 'reflect.apply' AND ${pgJsonField('meta', 'plan_id')} = $1 ORDER BY id DESC LIMIT 1`, [planId]);
    return c ? { id: intOf(c['id'], 'mnemo_journal.id'), state: c['state'] as 'applied' | 'undone' } : undefined;
  };
  return maintenanceEntries(rows, withJournal ? changeOf : null);
}

/** One entry of the log, its report in nooa's JSON (pyDumps), as nooa writes it. */
export function appendPgMaintenanceEntry(conn: PgStoreConnection, ts: number, kind: string, report: Record<string, unknown>): void {
  conn.db().query(`INSERT INTO ${conn.table('maintenance_log')}(ts, kind, report) VALUES ($1, $2, $3)`, [ts, kind, pyDumps(report)]);
}
