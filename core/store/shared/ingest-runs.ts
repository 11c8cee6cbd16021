/**
 * store.runs' belief ingest methods (port.ts, `StoreRuns`), one set for both adapters: the run's
 * rules are ingest-run.ts's, each adapter supplies its statements (IngestSql).
 */
import { beginIngestRun, clearIngestRun, foreignDeltaDimensions, noteIngestBatch, rollbackIngestRun, type IngestSql } from './ingest-run.js';
import type { StoreRuns } from '../port/port.js';
import type { StoreHandle } from './store-handle.js';

export type IngestRuns = Pick<StoreRuns, 'beginIngestRun' | 'noteIngestBatch' | 'foreignDeltaDimensions' | 'clearIngestRun' | 'rollbackIngestRun'>;

export function ingestRuns(store: StoreHandle, sql: IngestSql): IngestRuns {
  return {
    beginIngestRun: () => beginIngestRun(store),
    noteIngestBatch: (m, first, last) => noteIngestBatch(store, m, first, last),
    foreignDeltaDimensions: (m) => foreignDeltaDimensions(sql, m),
    clearIngestRun: () => clearIngestRun(sql),
    rollbackIngestRun: (m) => rollbackIngestRun(store, sql, m),
  };
}
