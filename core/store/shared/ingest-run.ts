/**
 * A belief ingest written in short transactions (BeliefModel.ingestInBatches). Each batch only
 * appends deltas (and indexes their evidence); the dimensions are written in the last batch. So a
 * half-done ingest is exactly its delta id ranges, which the marker in `mnemo_meta` lists batch by
 * batch: a failure, a cancel or the next writable open after a crash deletes those ranges and the
 * store is as before. Deltas other writers append in between are not in the ranges and stay.
 */
import { MnemoError } from '../../errors.js';
import { isLiveWriter } from './run-marker.js';
import { hostname } from 'node:os';
import type { StoreHandle } from './store-handle.js';

/** `mnemo_meta` key of a belief ingest's marker (on PostgreSQL, pg-run-markers.ts keeps it apart). */
export const INGEST_MARKER_KEY = 'beliefs_ingest_run';
const KEY = INGEST_MARKER_KEY;

/** The statements an ingest run needs, as one adapter keeps them (sqlite-ingest-sql.ts, pg/pg-ingest-sql.ts). */
export interface IngestSql {
  /** The (entity, attribute) pairs of the deltas with an id strictly between the two. */
  deltaDimensionsBetween(after: number, before: number): { entity: string; attribute: string }[];
  /** Deletes the deltas with an id in [first, last] (and what is derived from them). */
  deleteDeltas(first: number, last: number): void;
  /** Deletes a row of `mnemo_meta`. */
  deleteMeta(key: string): void;
}

export interface IngestMarker {
  pid: number;
  host: string;
  started_at: number;
  /** Delta id ranges [first, last] this ingest appended, one per committed batch. */
  ranges: [number, number][];
}

export function ingestInProgress(store: StoreHandle): IngestMarker | null {
  const raw = store.getMeta(KEY);
  return raw ? (JSON.parse(raw) as IngestMarker) : null;
}

/** In the first batch's transaction: refuses a second ingest while one is written. */
export function beginIngestRun(store: StoreHandle): IngestMarker {
  const running = ingestInProgress(store);
  if (running) throw new MnemoError('busy', `another belief ingest (process ${running.pid}) is still being written to this store; wait for it to finish`);
  const m: IngestMarker = { pid: process.pid, host: hostname(), started_at: store.clock.now(), ranges: [] };
  store.setMeta(KEY, JSON.stringify(m));
  return m;
}

/** In each batch's transaction, with the ids it appended. */
export function noteIngestBatch(store: StoreHandle, m: IngestMarker, first: number, last: number): void {
  m.ranges.push([first, last]);
  store.setMeta(KEY, JSON.stringify(m));
}

/**
 * Dimensions that other writers appended deltas to while this ingest ran: their deltas sit in the
 * gaps between this ingest's id ranges, or after the last one (ids only grow).
 */
export function foreignDeltaDimensions(sql: IngestSql, m: IngestMarker): { entity: string; attribute: string }[] {
  const gaps: [number, number][] = [];
  for (let k = 0; k + 1 < m.ranges.length; k++) if (m.ranges[k + 1]![0] > m.ranges[k]![1] + 1) gaps.push([m.ranges[k]![1], m.ranges[k + 1]![0]]);
  if (m.ranges.length) gaps.push([m.ranges[m.ranges.length - 1]![1], Number.MAX_SAFE_INTEGER]);
  const seen = new Map<string, { entity: string; attribute: string }>();
  for (const [after, before] of gaps) {
    for (const r of sql.deltaDimensionsBetween(after, before)) seen.set(`${r.entity}\u0001${r.attribute}`, r);
  }
  return [...seen.values()];
}

export function clearIngestRun(sql: IngestSql): void {
  sql.deleteMeta(KEY);
}

/** Deletes what the ingest appended (the evidence index follows by trigger) and its marker, in one transaction. */
export function rollbackIngestRun(store: StoreHandle, sql: IngestSql, m: IngestMarker): void {
  store.transaction(() => {
    for (const [a, b] of m.ranges) sql.deleteDeltas(a, b);
    clearIngestRun(sql);
  });
}

/** On a writable open: an ingest whose process is gone is rolled back. Returns a warning, or null. */
export function recoverInterruptedIngest(store: StoreHandle, sql: IngestSql): string | null {
  if (store.readonly || !store.hasMnemo() || !ingestInProgress(store)) return null;
  // The marker is read again inside the transaction, so two processes opening at once recover once.
  const m = store.transaction(() => {
    const marker = ingestInProgress(store);
    if (!marker || isLiveWriter(marker.pid, marker.host)) return null;
    rollbackIngestRun(store, sql, marker);
    return marker;
  });
  if (!m) return null;
  const n = m.ranges.reduce((s, [a, b]) => s + b - a + 1, 0);
  return `a belief ingest by process ${m.pid} was cut short; its ${n} deltas were removed and the beliefs are as they were before it`;
}
