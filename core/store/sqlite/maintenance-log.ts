/**
 * nooa's maintenance log as the workbench shows it. nooa keeps a pass's row when its change is
 * undone, so each reflection pass is matched to its journal change (by plan id) to say whether it
 * still stands.
 */
import type Database from 'better-sqlite3';
import { pyDumps } from '../../model/pyjson.js';
import type { StatementCache } from './sqlite.js';

export interface MaintenanceEntry {
  ts: number;
  kind: string;
  report: unknown;
  /** 'undone' when the journal change that made this pass was undone since. */
  state: 'applied' | 'undone';
  change_id: number | null;
}
/** The log, newest first. */
export function readMaintenanceHistory(db: Database.Database, limit: number): MaintenanceEntry[] {
  const rows = db.prepare('SELECT ts, kind, report FROM maintenance_log ORDER BY ts DESC, rowid DESC LIMIT ?').all(limit) as LogRow[];
  const hasJournal = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_journal'").get() !== undefined;
  const changeOf = hasJournal
    ? db.prepare("SELECT id, state FROM mnemo_journal WHERE kind = 'reflect.apply' AND json_extract(meta, '$.plan_id') = ? ORDER BY id DESC LIMIT 1")
    : null;
  return maintenanceEntries(rows, changeOf ? (planId) => changeOf.get(planId) as JournalState | undefined : null);
}

/** Appends a pass's row, its report in nooa's JSON (the caller holds the transaction, the mnemo tables made). */
export function appendMaintenanceEntry(st: StatementCache, ts: number, kind: string, report: Record<string, unknown>): void {
  st.get('INSERT INTO maintenance_log(ts, kind, report) VALUES (?, ?, ?)').run(ts, kind, pyDumps(report));
}

/** One row of the log as stored. */
export interface LogRow {
  ts: number;
  kind: string;
  report: string;
}

type JournalState = { id: number; state: 'applied' | 'undone' };

/**
 * The log's rows as entries, on either adapter: `changeOf` finds the newest journal change that
 * applied a plan (null on a store without a journal).
 */
export function maintenanceEntries(rows: readonly LogRow[], changeOf: ((planId: string) => JournalState | undefined) | null): MaintenanceEntry[] {
  return rows.map((r) => {
    const report = safeJson(r.report);
    const planId = report && typeof report === 'object' ? (report as Record<string, unknown>)['plan_id'] : undefined;
    const change = typeof planId === 'string' && changeOf ? changeOf(planId) : undefined;
    return { ts: r.ts, kind: r.kind, report, state: change?.state ?? 'applied', change_id: change?.id ?? null };
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
