/**
 * A belief ingest written in short transactions (BeliefModel.ingestInBatches). Each batch only
 * appends deltas (and indexes their evidence); the dimensions are written in the last batch. So a
 * half-done ingest is exactly its delta id ranges, which the marker in `mnemo_meta` lists batch by
 * batch: a failure, a cancel or the next writable open after a crash deletes those ranges and the
 * store is as before. Deltas other writers append in between are not in the ranges and stay.
 */
import { statementOf } from './connection.js';
import { MnemoError } from '../errors.js';
import { isLiveWriter } from './change-run.js';
import { hostname } from 'node:os';
import type { StoreHandle } from './store-handle.js';

const KEY = 'beliefs_ingest_run';

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
export function foreignDeltaDimensions(store: StoreHandle, m: IngestMarker): { entity: string; attribute: string }[] {
  const gaps: [number, number][] = [];
  for (let k = 0; k + 1 < m.ranges.length; k++) if (m.ranges[k + 1]![0] > m.ranges[k]![1] + 1) gaps.push([m.ranges[k]![1], m.ranges[k + 1]![0]]);
  if (m.ranges.length) gaps.push([m.ranges[m.ranges.length - 1]![1], Number.MAX_SAFE_INTEGER]);
  const pick = statementOf(store, 'SELECT DISTINCT entity, attribute FROM mnemo_deltas WHERE id > ? AND id < ?');
  const seen = new Map<string, { entity: string; attribute: string }>();
  for (const [after, before] of gaps) {
    for (const r of pick.all(after, before) as { entity: string; attribute: string }[]) seen.set(`${r.entity}\u0001${r.attribute}`, r);
  }
  return [...seen.values()];
}

export function clearIngestRun(store: StoreHandle): void {
  statementOf(store, 'DELETE FROM mnemo_meta WHERE key = ?').run(KEY);
}

/** Deletes what the ingest appended (the evidence index follows by trigger) and its marker, in one transaction. */
export function rollbackIngestRun(store: StoreHandle, m: IngestMarker): void {
  store.transaction(() => {
    const del = statementOf(store, 'DELETE FROM mnemo_deltas WHERE id BETWEEN ? AND ?');
    for (const [a, b] of m.ranges) del.run(a, b);
    clearIngestRun(store);
  });
}

/** On a writable open: an ingest whose process is gone is rolled back. Returns a warning, or null. */
export function recoverInterruptedIngest(store: StoreHandle): string | null {
  if (store.readonly || !store.hasMnemo() || !ingestInProgress(store)) return null;
  // The marker is read again inside the transaction, so two processes opening at once recover once.
  const m = store.transaction(() => {
    const marker = ingestInProgress(store);
    if (!marker || isLiveWriter(marker.pid, marker.host)) return null;
    rollbackIngestRun(store, marker);
    return marker;
  });
  if (!m) return null;
  const n = m.ranges.reduce((s, [a, b]) => s + b - a + 1, 0);
  return `a belief ingest by process ${m.pid} was cut short; its ${n} deltas were removed and the beliefs are as they were before it`;
}
