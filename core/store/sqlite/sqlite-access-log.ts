/**
 * A MemoryStore's access log: each access onto its memory's ring (counters, recency and strength
 * as log_access rules) and into the uncapped event table (access-events.ts), and the event table's
 * reads. On PostgreSQL the facade logs accesses itself (it locks and holds the rows first,
 * pg/pg-store.ts) over pg/pg-access-events.ts; SQLite's IMMEDIATE transaction holds the whole
 * store, so no row needs locking here.
 */
import { untilAsOf, type StoreAsOf } from '../../model/history.js';
import { logAccess, type AccessRecord, type Memory } from '../../model/memory.js';
import { insertAccessEvent, queryEvents } from './access-events.js';
import { encodeRow } from '../port/codec.js';
import type { AccessWrite } from '../port/port.js';
import type { DB } from './sqlite.js';
import type { SqliteMemoryRows } from './sqlite-memory-rows.js';
import type { StoreHandle } from '../shared/store-handle.js';
import type { AccessEvent, EventFilter } from '../port/event-rows.js';

type LoggingStore = Pick<StoreHandle, 'transaction' | 'ensureMnemo' | 'emit'> & {
  get(id: string): Memory | null;
};

export class SqliteAccessLog {
  constructor(
    private readonly store: LoggingStore,
    private readonly db: DB,
    private readonly rows: SqliteMemoryRows,
    /** The instant a store opened as of one shows (openAsOf); null for the store as it is now. */
    private readonly history: StoreAsOf | null,
  ) {}

  /** Each record onto the memory's ring and into the event table, all in one transaction. */
  logAccesses(writes: readonly AccessWrite[]): void {
    if (writes.length === 0) return;
    const touched: string[] = [];
    this.store.transaction(() => {
      this.store.ensureMnemo();
      for (const w of writes) {
        const m = this.store.get(w.id);
        if (!m) continue;
        logAccess(m, w.record, w.reinforce === undefined ? {} : { reinforce: w.reinforce });
        this.rows.updateUsage(encodeRow(m));
        insertAccessEvent(this.db, m.id, w.record, m.strength, w.reinforce !== false, false, w.context ?? null, w.terms ?? null);
        touched.push(m.id);
      }
    });
    for (const id of touched) this.store.emit({ kind: 'upsert', id });
  }

  /** Ring entries the memory already carries (a new or imported memory) into the event table only. */
  recordAccessEvents(memoryId: string, records: readonly AccessRecord[], strengthAfter: number | null, opts: { backfilled?: boolean }): void {
    if (records.length === 0) return;
    this.store.transaction(() => {
      this.store.ensureMnemo();
      for (const rec of records) insertAccessEvent(this.db, memoryId, rec, strengthAfter, true, opts.backfilled ?? false);
    });
  }

  /** The event table is a log, not rolled back: a past store leaves out what was logged after its instant. */
  events(filter: EventFilter): { total: number; events: AccessEvent[] } {
    return queryEvents(this.db, { ...filter, until: untilAsOf(this.history, filter.until) });
  }
}
