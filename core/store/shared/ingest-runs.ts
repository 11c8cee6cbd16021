/**
 * store.runs' belief ingest (port.ts, `StoreRuns.beginIngestRun`), one for both adapters: the run's
 * rules are ingest-run.ts's, each adapter supplies its statements (IngestSql). The run it hands out
 * keeps its marker, so the caller never passes one back.
 */
import { beginIngestRun, clearIngestRun, foreignDeltaDimensions, noteIngestBatch, rollbackIngestRun, type IngestSql } from './ingest-run.js';
import type { IngestRun, StoreRuns } from '../port/port.js';
import type { StoreHandle } from './store-handle.js';

export type IngestRuns = Pick<StoreRuns, 'beginIngestRun'>;

export function ingestRuns(store: StoreHandle, sql: IngestSql): IngestRuns {
  return {
    beginIngestRun: (): IngestRun => {
      const marker = beginIngestRun(store);
      return {
        noteBatch: (first, last) => noteIngestBatch(store, marker, first, last),
        foreignDeltaDimensions: () => foreignDeltaDimensions(sql, marker),
        clear: () => clearIngestRun(sql),
        rollback: () => rollbackIngestRun(store, sql, marker),
      };
    },
  };
}
