/**
 * "The write lock was never taken": a transaction that failed at its start because another writer
 * kept the store locked past the connection's busy wait. Nothing of it ran, so a long change can
 * try that step again (Pacer.take) instead of throwing away minutes of committed batches for a
 * busy moment. Only SQLite says so: its IMMEDIATE transaction takes the lock before the step runs;
 * PostgreSQL waits for row locks inside the step, where part of it may have run.
 */
const LOCK_NOT_TAKEN = Symbol('lock-not-taken');

/** SQLite's "the database is locked" in any of its forms. */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Marks `err` (thrown before the transaction's body ran) as a lock that was never taken. */
export function markLockNotTaken(err: unknown): void {
  if (err !== null && typeof err === 'object') (err as Record<symbol, boolean>)[LOCK_NOT_TAKEN] = true;
}

export function lockNotTaken(err: unknown): boolean {
  return err !== null && typeof err === 'object' && (err as Record<symbol, boolean>)[LOCK_NOT_TAKEN] === true;
}
