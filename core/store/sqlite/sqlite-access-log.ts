/**
 * A MemoryStore's access log: each access onto its memory's ring (counters, recency and strength
 * as log_access rules) and into the uncapped event table (access-events.ts), and the event table's
 * reads. On PostgreSQL the facade logs accesses itself (it locks and holds the rows first,
 * pg/pg-store.ts) over pg/pg-access-events.ts; SQLite's IMMEDIATE transaction holds the whole
 * store, so no row needs locking here.
 *
 * A recall's accesses may wait (`deferIfBusy`): SQLite has one write lock, and while a long change
 * holds it in batches (a reflection applying, an erase) a recall that logs its accesses at once
 * sleeps in the busy handler, up to a batch and a pause each time, on the thread that answers the
 * next recall too. So when the lock is taken, the accesses are kept here and written as soon as
 * it is free (tried again every few milliseconds, off the caller's path), together with any that
 * came meanwhile; a read of the event table writes them first. What a recall returns never
 * depends on them: they only move strength and recency for the recalls after it.
 *
 * For the same reason their own transactions commit with `synchronous = NORMAL`: the WAL is not
 * synced at their commit, only at the next checkpoint or the next commit of anything else. In WAL
 * mode that never corrupts the file; what a power cut (not a crashed process) may lose is the last
 * accesses, and the sync cost about half of each recall's write.
 */
import { untilAsOf, type StoreAsOf } from '../../model/history.js';
import { logAccess, type AccessRecord, type Memory } from '../../model/memory.js';
import { insertAccessEvent, queryEvents } from './access-events.js';
import { isSqliteBusy } from '../shared/lock-not-taken.js';
import { decodeRow, encodeRow } from '../port/codec.js';
import type { AccessWrite } from '../port/port.js';
import type { SourceRow } from '../port/source-rows.js';
import type { DB } from './sqlite.js';
import type { SqliteMemoryRows } from './sqlite-memory-rows.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { courtesyKey, noteKeptAccesses, writerWaiting } from '../port/write-courtesy.js';
import type { AccessEvent, EventFilter } from '../port/event-rows.js';

type LoggingStore = Pick<StoreHandle, 'transaction' | 'ensureMnemo' | 'emit' | 'warn' | 'isClosed' | 'path'>;

/** First retry of kept accesses, and the longest wait between retries. */
const RETRY_FIRST_MS = 5;
const RETRY_MAX_MS = 100;
/**
 * Kept accesses are written this many to a transaction, for FLUSH_TURN_MS a turn at most, so the
 * recalls this thread answers run between turns: written at once, the accesses kept through a reflection's
 * apply (thousands) held an agent's worker for over a second. Since a long change's batches keep
 * them (write-courtesy.ts), they come due together in each of its pauses; 128 a transaction showed
 * in the agents' p99 beside a reflect at 20k (331 ms, against 218 ms with 32; one run each).
 */
const WRITE_AT_MOST = 32;
/** A turn writes kept accesses, WRITE_AT_MOST a transaction, for this long at most while the lock is free. */
const FLUSH_TURN_MS = 15;
/** Kept this long, a try waits this long for the lock (a writer that never pauses still lets them in). */
const KEEP_AT_MOST_MS = 5_000;
const OVERDUE_WAIT_MS = 50;
/** Past this many kept, a try waits for the lock as any write does: memory is not spent without bound. */
const KEEP_AT_MOST = 20_000;
/** SQLite's number for `synchronous = NORMAL`. */
const SYNC_NORMAL = 1;

export class SqliteAccessLog {
  /** Accesses whose write found the lock taken, oldest first, and since when the oldest waits. */
  private kept: AccessWrite[] = [];
  private keptSince = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private retryMs = RETRY_FIRST_MS;
  /** The connection's busy wait (set once when it opened, sqlite.ts), restored after a try without it. */
  private readonly busyTimeoutMs: number;
  /** The connection's `synchronous` level (2: FULL), restored after each access write (the file's comment). */
  private readonly synchronous: number;
  /** This store on the board where a long change of this process says it wants the lock (write-courtesy.ts). */
  private readonly courtesy: number;

  constructor(
    private readonly store: LoggingStore,
    private readonly db: DB,
    private readonly rows: SqliteMemoryRows,
    /** The instant a store opened as of one shows (openAsOf); null for the store as it is now. */
    private readonly history: StoreAsOf | null,
  ) {
    this.busyTimeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
    this.synchronous = db.pragma('synchronous', { simple: true }) as number;
    this.courtesy = courtesyKey(store.path);
  }

  /**
   * Each record onto the memory's ring and into the event table, all in one transaction. With
   * `deferIfBusy`, outside a transaction, a taken write lock keeps them for a moment instead of
   * waiting for it (the file's comment says why).
   */
  logAccesses(writes: readonly AccessWrite[], opts: { deferIfBusy?: boolean } = {}): void {
    if (!opts.deferIfBusy || this.db.inTransaction) {
      this.flushKept();
      this.write(writes);
      return;
    }
    if (writes.length === 0) return;
    if (this.kept.length === 0) this.keptSince = performance.now();
    this.kept.push(...writes);
    noteKeptAccesses(writes.length);
    this.tryKept();
  }

  /** Writes the kept accesses now, waiting for the lock as any write does (a read of the event table, a close). */
  flushKept(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.kept.length === 0) return;
    const writes = this.kept;
    this.kept = [];
    try {
      this.write(writes);
    } catch (err) {
      // Not written (the transaction rolled back): kept for the next try, the caller hears why.
      this.kept = [...writes, ...this.kept];
      throw err;
    }
    noteKeptAccesses(-writes.length);
  }

  /**
   * Writes the oldest kept accesses, WRITE_AT_MOST to a transaction, for FLUSH_TURN_MS at most,
   * without waiting for the lock (kept long, a short wait; kept past KEEP_AT_MOST, as long as any
   * write waits); the rest on a later turn. On a taken lock, another try a little later, longer
   * each time. A taken lock is never an error here: the recall that kept them has its answer.
   * From a timer (`fromTimer`) it never throws: nobody would hear it but the worker's
   * uncaught-error handler, which stops the worker; a write that fails for another reason than
   * the lock drops those accesses, with a warning.
   */
  private tryKept(fromTimer = false): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.kept.length === 0 || this.store.isClosed) return;
    // A long change of this process wants the lock: let it have it, and look again shortly (its
    // batch and pause are a few hundred ms). Kept long or many, they try as below all the same.
    if (writerWaiting(this.courtesy) && this.kept.length < KEEP_AT_MOST && performance.now() - this.keptSince < KEEP_AT_MOST_MS) {
      this.retry = setTimeout(() => this.tryKept(true), RETRY_FIRST_MS);
      this.retry.unref?.();
      return;
    }
    const turnStarted = performance.now();
    let written: boolean;
    let dropped = false;
    for (;;) {
      const chunk = this.kept.slice(0, WRITE_AT_MOST);
      const waitMs = this.kept.length >= KEEP_AT_MOST ? this.busyTimeoutMs : performance.now() - this.keptSince >= KEEP_AT_MOST_MS ? OVERDUE_WAIT_MS : 0;
      try {
        written = this.waitingAtMost(waitMs, () => this.write(chunk));
      } catch (err) {
        if (!fromTimer) throw err;
        this.store.warn('access-log-kept', `${chunk.length} accesses kept while the store was locked could not be written (${(err as Error).message}); they are not in the access log`);
        written = dropped = true; // dropped below, as if written: trying them again would fail the same way
      }
      if (!written) break;
      this.kept.splice(0, chunk.length);
      noteKeptAccesses(-chunk.length);
      this.retryMs = RETRY_FIRST_MS;
      // A long change's pause is when they can be written: more of it is used while the lock is
      // free, a turn's budget at most, so the recalls this thread answers still run between turns.
      // A write that failed ends the turn: the next chunk would most likely fail the same way.
      if (dropped || this.kept.length === 0 || performance.now() - turnStarted >= FLUSH_TURN_MS || writerWaiting(this.courtesy)) break;
    }
    if (written) {
      if (this.kept.length === 0) return;
      // The rest were kept after these: younger, so the clock of the oldest restarts no later than it should.
      this.keptSince = performance.now();
      this.retry = setTimeout(() => this.tryKept(true), 0);
      this.retry.unref?.();
      return;
    }
    this.retry = setTimeout(() => this.tryKept(true), this.retryMs);
    this.retry.unref?.();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  /** Runs `fn` with SQLite's busy wait at `ms`; false (nothing written) when the write lock stayed taken. */
  private waitingAtMost(ms: number, fn: () => void): boolean {
    const changed = ms !== this.busyTimeoutMs;
    if (changed) this.db.pragma(`busy_timeout = ${ms}`);
    try {
      fn();
      return true;
    } catch (err) {
      if (isSqliteBusy(err)) return false;
      throw err;
    } finally {
      if (changed) this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /** Writes the accesses in a transaction of their own, committed without a sync (the file's comment says why). */
  private write(writes: readonly AccessWrite[]): void {
    if (writes.length === 0) return;
    // Inside a caller's transaction, its commit decides how it is synced.
    if (this.db.inTransaction || this.synchronous <= SYNC_NORMAL) {
      this.writeNow(writes);
      return;
    }
    this.db.pragma('synchronous = NORMAL');
    try {
      this.writeNow(writes);
    } finally {
      this.db.pragma(`synchronous = ${this.synchronous}`);
    }
  }

  /**
   * Each memory is read, and its row written, once however many of the accesses are its own: the
   * accesses kept through a long change's batch are hundreds, mostly of the few memories the
   * agents keep recalling, and rewriting a memory's whole JSON once per access made the agents'
   * catch-up after each batch longer than the batch's pause (the long change then waited for the
   * lock). Applying them in order to the one decoded memory is what reading it back after each
   * write gave: the ring, the counters and each event's strength are the same.
   */
  private writeNow(writes: readonly AccessWrite[]): void {
    // Each memory as read once in this transaction (null: no such memory), its accesses applied in order.
    const read = new Map<string, { memory: Memory; rowid: number } | null>();
    const written: SourceRow[] = [];
    this.store.transaction(() => {
      this.store.ensureMnemo();
      for (const w of writes) {
        let r = read.get(w.id);
        if (r === undefined) read.set(w.id, (r = this.usageOf(w.id)));
        if (!r) continue;
        const m = r.memory;
        logAccess(m, w.record, w.reinforce === undefined ? {} : { reinforce: w.reinforce });
        insertAccessEvent(this.db, m.id, w.record, m.strength, w.reinforce !== false, false, w.context ?? null, w.terms ?? null);
      }
      for (const r of read.values()) {
        if (!r) continue;
        const row = encodeRow(r.memory);
        this.rows.updateUsage(row);
        written.push({ rowid: r.rowid, id: row.id, owner: row.owner, content: row.content, archived: row.archived, data: row.data });
      }
    });
    // Only what an access changes: indexes that read no usage skip these (store-rows.ts ChangeEvent),
    // and the one that reads it takes the row as written instead of reading it back.
    for (const row of written) this.store.emit({ kind: 'usage', id: row.id, row });
  }

  /**
   * A memory as its access changes it: its row alone. The write puts back only the row (its
   * edges live in their own table), so reading them too, as get() does, was a tenth of the write.
   */
  private usageOf(id: string): { memory: Memory; rowid: number } | null {
    const row = this.rows.row(id);
    return row ? { memory: decodeRow(row, []).memory, rowid: row.rowid! } : null;
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
    if (!this.history) this.flushKept();
    return queryEvents(this.db, { ...filter, until: untilAsOf(this.history, filter.until) });
  }
}
