/**
 * What a writer that died left part-way, put right as a store opens (either adapter, before anyone
 * reads it): a long change it left half-written is rolled back, a half-done undo or redo completed
 * (change-run.ts), and a belief ingest it left is removed (ingest-run.ts). Each is told as a warning.
 */
import { recoverInterruptedRun } from './change-run.js';
import { recoverInterruptedIngest, type IngestSql } from './ingest-run.js';
import type { JournalledStore } from './journal.js';

export function recoverInterruptedWork(store: JournalledStore, ingestSql: IngestSql): void {
  const recovered = recoverInterruptedRun(store);
  if (recovered) store.warn('recovered-run', recovered);
  const ingest = recoverInterruptedIngest(store, ingestSql);
  if (ingest) store.warn('recovered-ingest', ingest);
}
