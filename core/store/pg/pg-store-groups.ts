/**
 * A PgStore's journal, over this adapter's statements and row kinds, and its `store.queries` and
 * `store.runs` (port.ts StoreQueries, StoreRuns), each bound to the module that holds its SQL, as
 * sqlite-queries.ts and sqlite-runs.ts do for SQLite. The long
 * changes and ingest runs run SQLite's code (journal-runs.ts, ingest-runs.ts) over this adapter's
 * statements; the credential writes are each one transaction of the store's, on Mnemo's tables.
 */
import { feedRetention, pruneFeed, setFeedRetention } from '../sqlite/feed-retention.js';
import { ingestRuns } from '../shared/ingest-runs.js';
import { beliefJournalTargets } from '../sqlite/belief-journal-targets.js';
import { Journal } from '../shared/journal.js';
import { planErase, runErase, type EraseStore } from '../shared/erase-run.js';
import { pgEraseBackend } from './pg-erase.js';
import { journalRuns } from '../shared/journal-runs.js';
import type { JournalFollowUp, StoreQueries, StoreRuns, StoreWriter } from '../port/port.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { pgJournalSqlFor } from './pg-agent-journal-sql.js';
import { PgAudit } from './pg-audit.js';
import { PgBeliefTables } from './pg-belief-tables.js';
import { beginPgBulkLoad } from './pg-bulk-load.js';
import { PgCounts } from './pg-counts.js';
import { PgCredentials } from './pg-credentials.js';
import type { PgFeed } from './pg-feed.js';
import { pgFeedStatus, pgPruneFeedStep } from './pg-feed-retention.js';
import { PgGraph } from './pg-graph.js';
import { pgIngestSql } from './pg-ingest-sql.js';
import { pgJournalSql } from './pg-journal-sql.js';
import { pgMemoryRowTarget, pgTombstoneTarget } from './pg-journal-targets.js';
import { PgList } from './pg-list.js';
import { PgMemoryQueries } from './pg-memory-queries.js';
import type { PgMemoryRows } from './pg-memory-rows.js';
import { pgRuns } from './pg-not-yet-groups.js';
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
  const beliefRows = new PgBeliefTables(conn, store, evidence);
  const targets = [pgMemoryRowTarget(rows), pgTombstoneTarget(conn), profiles.target(), profiles.metaTarget(), ...beliefJournalTargets(() => beliefRows)];
  return new Journal<S>(store, pgJournalSqlFor(conn, pgJournalSql(conn)), targets, followUps);
}

export function pgStoreGroups(store: EraseStore, { conn, feed, profiles, readAhead, evidence }: PgStoreParts): { queries: StoreQueries; runs: StoreRuns } {

  const credentials = new PgCredentials(conn);
  const erasing = pgEraseBackend(conn, evidence, feed);
  const feedQueries = { feedRetention: () => feedRetention(store), feedStatus: () => pgFeedStatus(store, feed) };
  const queries = pgQueries(new PgRowQueries(conn, undefined, readAhead), new PgMemoryQueries(conn), credentials, new PgCounts(conn), new PgAudit(conn), profiles, new PgList(conn), new PgGraph(conn), feedQueries, {
    planErase: (selector) => planErase(store, erasing, selector),
  });
  const runs = pgRuns({
    ...journalRuns(store),
    ...ingestRuns(store, pgIngestSql(conn)),
    insertCredential: (c) =>
      store.transaction(() => {
        store.ensureMnemo();
        credentials.insert(c);
      }),
    markRevoked: (ids, now) =>
      store.transaction(() => {
        store.ensureMnemo();
        return credentials.markRevoked(ids, now);
      }),
    beginBulkLoad: () => beginPgBulkLoad(conn, store),
    setFeedRetention: (policy) => setFeedRetention(store, policy),
    pruneFeed: (now, pacing) => pruneFeed(store, now, pacing, (s, at) => pgPruneFeedStep(s, feed, at)),
    erase: (plan, opts, pacing) => runErase(store, erasing, plan, opts, pacing),
  });
  return { queries, runs };
}
