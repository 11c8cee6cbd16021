/**
 * The table `npm run bench -- backends` prints: each measure on SQLite and on PostgreSQL, their
 * ratio (PostgreSQL / SQLite) and issue #17's target for PostgreSQL, met or not.
 */
import type { Backend } from './backend-copies.js';
import type { OpenFigures, OpenSeries } from './backends-open.js';
import type { RecallFigures } from './backends-recall.js';
import type { ReflectFigures } from './backends-reflect.js';
import type { WritePhase } from './backends-writes.js';

export interface BackendsFigures {
  recall: Record<Backend, RecallFigures>;
  open_first_recall: Record<OpenSeries, OpenFigures>;
  /** Plan at --size; plan and apply at the apply size (the same copies when the sizes are equal). */
  reflect_plan: Record<Backend, ReflectFigures>;
  reflect_apply: Record<Backend, ReflectFigures>;
  writes: Record<Backend, { one: WritePhase; many: WritePhase; scaling: number }>;
}

export interface TableRow {
  measure: string;
  sqlite: number | null;
  postgres: number | null;
  /** PostgreSQL / SQLite, or for the writers' scaling row, PostgreSQL's own 8 / 1. */
  ratio: number | null;
  target: string;
  met: boolean | null;
}

const r2 = (x: number) => Number(x.toFixed(2));
const ratioOf = (pg: number | null, lite: number | null) => (pg !== null && lite !== null && lite > 0 ? r2(pg / lite) : null);
/** At most the writers, and at most as many times one writer's throughput as the machine has room for its CPU. */
export function writerCeiling(w: { one: WritePhase; many: WritePhase }): number | null {
  return w.one.busy_cores > 0 ? r2(Math.min(w.many.writers, w.one.cores / w.one.busy_cores)) : null;
}

/** SQLite's open + first recall target (docs/benchmarks/recall.md), which the issue asks of PostgreSQL too. */
export const OPEN_FIRST_RECALL_TARGET_MS = 1500;

export function backendsTable(f: BackendsFigures): TableRow[] {
  const rows: TableRow[] = [];
  const rel = (measure: string, lite: number | null, pg: number | null, max: number, extra?: { label: string; ok: boolean }) => {
    const ratio = ratioOf(pg, lite);
    rows.push({ measure, sqlite: lite, postgres: pg, ratio, target: `≤ ${max}× SQLite${extra ? `, ${extra.label}` : ''}`, met: ratio === null ? null : ratio <= max && (extra?.ok ?? true) });
  };
  rel('recall p50 (ms)', f.recall.sqlite.p50_ms, f.recall.postgres.p50_ms, 2, { label: '≤ 30 ms', ok: f.recall.postgres.p50_ms <= 30 });
  rel('recall p95 (ms)', f.recall.sqlite.p95_ms, f.recall.postgres.p95_ms, 2);
  const w = f.writes;
  rows.push({ measure: 'memories/s, 1 writer', sqlite: w.sqlite.one.per_s, postgres: w.postgres.one.per_s, ratio: ratioOf(w.postgres.one.per_s, w.sqlite.one.per_s), target: '', met: null });
  rows.push({ measure: `memories/s, ${w.postgres.many.writers} writers`, sqlite: w.sqlite.many.per_s, postgres: w.postgres.many.per_s, ratio: ratioOf(w.postgres.many.per_s, w.sqlite.many.per_s), target: '', met: null });
  rows.push({ measure: `${w.postgres.many.writers} writers / 1 writer`, sqlite: w.sqlite.scaling, postgres: w.postgres.scaling, ratio: w.postgres.scaling, target: '≥ 4× on PostgreSQL', met: w.postgres.scaling >= 4 });
  // What this machine allows: its cores over the cores one writer keeps busy (see backends-writes.ts).
  rows.push({ measure: `cores busy, 1 writer (of ${w.postgres.one.cores})`, sqlite: w.sqlite.one.busy_cores, postgres: w.postgres.one.busy_cores, ratio: null, target: '', met: null });
  rows.push({ measure: `${w.postgres.many.writers} / 1 writers this machine allows (cores / cores busy)`, sqlite: writerCeiling(w.sqlite), postgres: writerCeiling(w.postgres), ratio: null, target: '', met: null });
  const lost = (b: Backend) => w[b].one.lost + w[b].many.lost + w[b].one.errors + w[b].many.errors;
  rows.push({ measure: 'lost writes + errors', sqlite: lost('sqlite'), postgres: lost('postgres'), ratio: null, target: '0', met: lost('postgres') === 0 && lost('sqlite') === 0 });
  const p = f.reflect_plan;
  rel(`reflection plan at ${p.sqlite.size.toLocaleString('en')} (s)`, p.sqlite.plan_s, p.postgres.plan_s, 1.5);
  const a = f.reflect_apply;
  if (a.sqlite.size !== p.sqlite.size) rel(`reflection plan at ${a.sqlite.size.toLocaleString('en')} (s)`, a.sqlite.plan_s, a.postgres.plan_s, 1.5);
  rel(`reflection apply at ${a.sqlite.size.toLocaleString('en')} (s)`, a.sqlite.apply_s, a.postgres.apply_s, 1.5);
  // A failed apply has no time: the row says so rather than leave the target unjudged.
  if (a.sqlite.apply_error || a.postgres.apply_error) rows[rows.length - 1] = { ...rows[rows.length - 1]!, target: `${rows[rows.length - 1]!.target} (apply failed: see reflect_apply)`, met: false };
  const o = f.open_first_recall;
  rows.push({
    measure: 'open + first recall (ms, median)',
    sqlite: o.sqlite.median_ms,
    postgres: o.postgres.median_ms,
    ratio: ratioOf(o.postgres.median_ms, o.sqlite.median_ms),
    target: `≤ ${OPEN_FIRST_RECALL_TARGET_MS} ms, as SQLite's`,
    met: o.postgres.median_ms <= OPEN_FIRST_RECALL_TARGET_MS,
  });
  rows.push({
    measure: 'open + first recall, first open: builds indexes, leaves snapshots (ms)',
    sqlite: o.sqlite.first_ms ?? null,
    postgres: o.postgres.first_ms ?? null,
    ratio: ratioOf(o.postgres.first_ms ?? null, o.sqlite.first_ms ?? null),
    target: '',
    met: null,
  });
  rows.push({
    measure: 'open + first recall without index snapshots (ms, median)',
    sqlite: o.sqlite_no_snapshots.median_ms,
    postgres: o.postgres_no_snapshots.median_ms,
    ratio: ratioOf(o.postgres_no_snapshots.median_ms, o.sqlite_no_snapshots.median_ms),
    target: '',
    met: null,
  });
  return rows;
}

export function printTable(rows: TableRow[], log: (line: string) => void): void {
  const cell = (x: number | null) => (x === null ? '–' : x.toLocaleString('en', { maximumFractionDigits: 2 }));
  log('| measure | SQLite | PostgreSQL | ratio | target (PostgreSQL) | met |');
  log('|---|---|---|---|---|---|');
  for (const r of rows) log(`| ${r.measure} | ${cell(r.sqlite)} | ${cell(r.postgres)} | ${r.ratio === null ? '–' : `${r.ratio}×`} | ${r.target || '–'} | ${r.met === null ? '–' : r.met ? 'yes' : 'NO'} |`);
}
