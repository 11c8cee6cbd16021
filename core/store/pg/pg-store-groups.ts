/**
 * A PgStore's journal, over this adapter's statements and row kinds, and its `store.queries` and
 * `store.runs` (port.ts StoreQueries, StoreRuns), each bound to the module that holds its SQL, as
 * sqlite-queries.ts and sqlite-runs.ts do for SQLite. The long
 * changes and ingest runs run SQLite's code (journal-runs.ts, ingest-runs.ts) over this adapter's
 * statements.
 */
import { pruneFeed } from '../sqlite/feed-retention.js';
import type { PgHeldRows } from './pg-held-rows.js';
import { ingestRuns } from '../shared/ingest-runs.js';
import { beliefJournalTargets } from '../shared/belief-journal-targets.js';
import { BeliefWrites } from '../queries/belief-tables.js';
import { Journal } from '../shared/journal.js';
import { planErase, runErase, type EraseStore } from '../shared/erase-run.js';
import { pgEraseBackend } from './pg-erase.js';
import { journalRuns } from '../shared/journal-runs.js';
import type { JournalFollowUp, StoreQueries, StoreRuns, StoreWriter } from '../port/port.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { pgJournalSqlFor } from './pg-agent-journal-sql.js';
import { PgAudit } from './pg-audit.js';
import { beginPgBulkLoad } from './pg-bulk-load.js';
import type { PgFeed } from './pg-feed.js';
import { pgFeedStatus, pgPruneFeedStep } from './pg-feed-retention.js';
import { PgGraph } from './pg-graph.js';
import { pgIngestSql } from './pg-ingest-sql.js';
import { pgJournalSql } from './pg-journal-sql.js';
import { pgMemoryRowTarget, pgTombstoneTarget } from './pg-journal-targets.js';
import { PgList } from './pg-list.js';
import { PgMemoryQueries } from './pg-memory-queries.js';
import type { PgMemoryRows } from './pg-memory-rows.js';
import { pgQueries } from './pg-queries.js';
import type { PgReadAhead } from './pg-read-ahead.js';
import { PgRowQueries } from './pg-row-queries.js';
import type { PgSavedProfiles } from './pg-saved-profiles.js';
import type { PgEvidenceMirror } from './pg-evidence-mirror.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** What the groups share with the store: its connection, its feed, its saved profiles and its read-ahead. */
export interface PgStoreParts {
  conn: PgStoreConnection;
  feed: PgFeed;
  profiles: PgSavedProfiles;
  readAhead: PgReadAhead;
  evidence: PgEvidenceMirror;
}

/** The journal's row kinds here: memories, tombstones, saved profiles, meta values, belief aliases and rejections. */
export function pgStoreJournal<S extends StoreHandle & StoreWriter>(
  store: S,
  { conn, profiles }: Pick<PgStoreParts, 'conn' | 'profiles'>,
  rows: PgMemoryRows,
  evidence: PgEvidenceMirror,
  followUps: readonly JournalFollowUp[],
): Journal<S> {
  const beliefRows = new BeliefWrites(store);
  const targets = [pgMemoryRowTarget(rows), pgTombstoneTarget(conn), profiles.target(), profiles.metaTarget(), ...beliefJournalTargets(() => beliefRows)];
  return new Journal<S>(store, pgJournalSqlFor(conn, pgJournalSql(conn)), targets, followUps);
}

export function pgStoreGroups(store: EraseStore, { conn, feed, readAhead, evidence }: PgStoreParts, locked: PgHeldRows | null = null): { queries: StoreQueries; runs: StoreRuns } {
  const erasing = pgEraseBackend(conn, evidence);
  const feedQueries = { feedStatus: () => pgFeedStatus(store, feed) };
  const queries = pgQueries(new PgRowQueries(conn, undefined, readAhead, locked), new PgMemoryQueries(conn), new PgAudit(conn), new PgList(conn), new PgGraph(conn), feedQueries, {
    planErase: (selector) => planErase(store, erasing, selector),
  });
  const runs: StoreRuns = {
    ...journalRuns(store),
    ...ingestRuns(store, pgIngestSql(conn)),
    beginBulkLoad: () => beginPgBulkLoad(conn, store),
    pruneFeed: (now, pacing) => pruneFeed(store, now, pacing, (s, at) => pgPruneFeedStep(s, feed, at)),
    erase: (plan, opts, pacing) => runErase(store, erasing, plan, opts, pacing),
  };
  return { queries, runs };
}
