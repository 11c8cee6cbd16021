/**
 * nooa's maintenance log, read and written once above the port for both backends
 * (port/store-sql.ts): each reflection pass matched to its journal change (by plan id) to say
 * whether it still stands, since nooa keeps a pass's row when its change is undone.
 */
import { pyDumps } from '../../model/pyjson.js';
import type { MaintenanceEntry } from '../port/event-rows.js';
import type { StoreReader, StoreWriter } from '../port/port.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { intOf } from '../shared/sql-values.js';
import { query } from '../shared/store-query.js';

type JournalState = { id: number; state: 'applied' | 'undone' };

/** The log, newest first, each reflection pass with whether it still stands. */
export function maintenanceHistory(store: Pick<StoreReader, 'sql' | 'hasMnemo'>, limit = 20): MaintenanceEntry[] {
  const sql = store.sql;
  const rows = sql
    .all(query(`SELECT ts, kind, report FROM ${sql.table('maintenance_log')} ORDER BY ts DESC, rowid DESC LIMIT ?`, [limit]))
    .map((r) => ({ ts: r['ts'] as number, kind: r['kind'] as string, report: r['report'] as string }));
  // A nooa-only store has the log and no journal.
  const hasJournal = store.hasMnemo() && sql.hasTable('mnemo_journal');
  const planQuery = `SELECT id, state FROM ${sql.table('mnemo_journal')} WHERE kind = 'reflect.apply' AND ${dialectOf(sql).jsonField('meta', 'plan_id')} = ? ORDER BY id DESC LIMIT 1`;
  const changeOf = (planId: string): JournalState | undefined => {
    const c = sql.get(query(planQuery, [planId]));
    return c ? { id: intOf(c['id'], 'mnemo_journal.id'), state: c['state'] as JournalState['state'] } : undefined;
  };
  return rows.map((r) => {
    const report = safeJson(r.report);
    const planId = report && typeof report === 'object' ? (report as Record<string, unknown>)['plan_id'] : undefined;
    const change = typeof planId === 'string' && hasJournal ? changeOf(planId) : undefined;
    return { ts: r.ts, kind: r.kind, report, state: change?.state ?? 'applied', change_id: change?.id ?? null };
  });
}

/** Appends a pass's row, its report in nooa's JSON (pyDumps), as nooa writes it. */
export function logMaintenance(store: Pick<StoreWriter, 'transaction' | 'ensureMnemo' | 'sql' | 'clock'>, kind: string, report: Record<string, unknown>): void {
  store.transaction(() => {
    store.ensureMnemo();
    store.sql.run(query(`INSERT INTO ${store.sql.table('maintenance_log')}(ts, kind, report) VALUES (?, ?, ?)`, [store.clock.now(), kind, pyDumps(report)]));
  });
}

/** A report nooa wrote as JSON; kept as text when it is not. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
