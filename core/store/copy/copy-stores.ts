/**
 * `mnemo copy <from> <to>`: every table of a store, every row, from one backend to another
 * (SQLite ⇄ PostgreSQL, or SQLite to SQLite), below the store port: it moves tables, not memories,
 * so nothing is re-derived, re-stamped or re-journalled on the way, and the journal, the feed and
 * the access log arrive as they were.
 *
 * Resuming: rows are read in key order and written in batches; each batch commits together with
 * the table's progress (its last key and row count) in the target. A copy killed at any instant
 * leaves whole batches and a progress record that names exactly them, so `--resume` continues
 * after the last committed batch, without duplicates and without gaps. The target also records a
 * fingerprint of the source (row counts, last keys, meta rows, the feed's sequence); a resume
 * continues only a copy of the same source, unchanged since the copy began.
 */
import { MnemoError } from '../../errors.js';
import { isPgUrl, parsePgStoreUrl } from '../pg/pg-url.js';
import { PgCopySource } from './pg-copy-source.js';
import { PgCopyTarget } from './pg-copy-target.js';
import { SqliteCopySource } from './sqlite-copy-source.js';
import { SqliteCopyTarget } from './sqlite-copy-target.js';
import { copyColumns, storeTables, type TableSpec } from './store-tables.js';
import type { CopyRow, CopySource, CopyTarget, CopyValue, TableProgress } from './copy-endpoint.js';

export interface CopyOptions {
  /** Finish an interrupted copy of the same source (without it, a target holding anything is refused). */
  resume?: boolean;
  /** Rows per batch (one transaction each). */
  batchRows?: number;
  /** Told after every batch and once per table when it is complete. */
  onProgress?: (event: CopyProgress) => void;
}

export interface CopyProgress {
  table: string;
  rows: number;
  total: number;
  done: boolean;
}

export interface CopySummary {
  from: string;
  to: string;
  resumed: boolean;
  tables: { name: string; rows: number; copied_now: number }[];
  rows: number;
  copied_now: number;
}

export const DEFAULT_BATCH_ROWS = 1000;

function sourceFor(location: string): CopySource {
  return isPgUrl(location) ? new PgCopySource(parsePgStoreUrl(location)) : new SqliteCopySource(location);
}

function targetFor(location: string): CopyTarget {
  return isPgUrl(location) ? new PgCopyTarget(parsePgStoreUrl(location)) : new SqliteCopyTarget(location);
}

function keyOf(spec: TableSpec, row: CopyRow): CopyValue[] {
  const cols = copyColumns(spec);
  return spec.copyKey.map((k) => row[cols.indexOf(k)]!);
}

/** Whether the target can take this copy; a typed error says why not and what to do. */
function startingPoint(source: CopySource, target: CopyTarget, signature: string, resume: boolean): Map<string, TableProgress> | null {
  const state = target.state();
  if (state.kind === 'store') {
    throw new MnemoError('conflict', `${target.shown} already holds a store; mnemo copy writes only into an empty target (a new file, or a schema with no tables), or finishes an interrupted copy with --resume`, { target: target.shown });
  }
  if (state.kind === 'empty') return null;
  if (state.signature !== signature) {
    throw new MnemoError('conflict', `${target.shown} holds an unfinished copy of another store, or of ${source.shown} as it was before it changed; remove the target (drop the file or the schema) and copy again`, { target: target.shown });
  }
  if (!resume) {
    const rows = [...state.progress.values()].reduce((n, p) => n + p.rows, 0);
    throw new MnemoError('conflict', `${target.shown} holds an interrupted copy of ${source.shown} (${rows.toLocaleString('en')} rows so far); rerun with --resume to finish it`, { target: target.shown, rows });
  }
  return state.progress;
}

export function copyStore(from: string, to: string, options: CopyOptions = {}): CopySummary {
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const source = sourceFor(from);
  const target = targetFor(to);
  try {
    const kind = source.open();
    const tables = storeTables().filter((t) => t.nooa || kind.hasMnemo);
    const facts = source.describe(kind, tables);
    const resumedFrom = startingPoint(source, target, facts.signature, options.resume === true);
    // Every value is checked before the first write: a copy that cannot be exact writes nothing.
    for (const t of tables) source.check(t, isPgUrl(to));
    if (!resumedFrom) target.prepare(facts, tables);
    const summary: CopySummary = { from: source.shown, to: target.shown, resumed: resumedFrom !== null, tables: [], rows: 0, copied_now: 0 };
    for (const t of tables) {
      const total = facts.counts[t.name] ?? 0;
      let progress: TableProgress = resumedFrom?.get(t.name) ?? { after: null, rows: 0 };
      const before = progress.rows;
      while (progress.rows < total) {
        const rows = source.readBatch(t, progress.after, batchRows);
        if (rows.length === 0) break;
        progress = { after: keyOf(t, rows[rows.length - 1]!), rows: progress.rows + rows.length };
        target.writeBatch(t, rows, progress);
        options.onProgress?.({ table: t.name, rows: progress.rows, total, done: false });
      }
      if (progress.rows !== total) {
        throw new MnemoError('conflict', `${t.name}: copied ${progress.rows} rows of ${total}; the source changed during the copy`, { table: t.name });
      }
      options.onProgress?.({ table: t.name, rows: progress.rows, total, done: true });
      summary.tables.push({ name: t.name, rows: total, copied_now: total - before });
      summary.rows += total;
      summary.copied_now += total - before;
    }
    target.finish(facts, tables);
    return summary;
  } finally {
    source.close();
    target.close();
  }
}
