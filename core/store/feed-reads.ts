/**
 * The read side of the store's change feed (`mnemo_feed`: one row per changed memory, `seq`
 * increasing; its epoch in `mnemo_meta`). An interim reader written against the feed's agreed
 * shape so the persisted indexes can be built and tested before the feed's own triggers land;
 * the feed's owner replaces this file. A file without the table has no feed (null).
 */
import type { DB } from './sqlite.js';
import type { FeedChanges, FeedPosition } from './port.js';

function hasFeed(db: DB): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mnemo_feed'").get() !== undefined;
}

function epochOf(db: DB): string | null {
  const row = db.prepare("SELECT value FROM mnemo_meta WHERE key = 'feed_epoch'").get() as { value: string } | undefined;
  return row?.value ?? null;
}

export function readFeedPosition(db: DB): FeedPosition | null {
  if (!hasFeed(db)) return null;
  const epoch = epochOf(db);
  if (!epoch) return null;
  const seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) FROM mnemo_feed').pluck().get() as number) ?? 0;
  return { epoch, seq };
}

export function readChangedSince(db: DB, pos: FeedPosition, limit: number): FeedChanges | null {
  const now = readFeedPosition(db);
  if (!now || now.epoch !== pos.epoch || pos.seq > now.seq) return null;
  const oldest = db.prepare('SELECT MIN(seq) FROM mnemo_feed').pluck().get() as number | null;
  // Rows up to pos.seq may be pruned; a gap right after pos means changes we can no longer name.
  if (oldest !== null && oldest > pos.seq + 1 && now.seq > pos.seq) return null;
  const rows = db.prepare('SELECT memory_id FROM mnemo_feed WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?').pluck().all(pos.seq, now.seq, limit + 1) as string[];
  if (rows.length > limit) return null;
  const ids = [...new Set(rows)];
  const exists = db.prepare('SELECT 1 FROM memories WHERE id = ?').pluck();
  const upserts: string[] = [];
  const deletes: string[] = [];
  for (const id of ids) (exists.get(id) !== undefined ? upserts : deletes).push(id);
  return { upserts, deletes, position: now };
}

export function readConsistently<T>(db: DB, fn: () => T): T {
  if (db.inTransaction) return fn();
  return db.transaction(fn).deferred();
}
