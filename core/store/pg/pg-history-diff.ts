/**
 * The reads behind a diff between two instants on a PostgreSQL store (SQLite's: history-diff.ts):
 * every memory and edge the feed rows between them touched, its row at each end (rolled back from
 * its current row, pg-history-rows.ts) and who wrote each change in between. A position of the past
 * here is its instant (pg-history-instant.ts): the rows between are those the earlier instant rolls
 * back and the later one keeps.
 *
 * A feed row names its writing connection (a token), not a writer text as SQLite's does: a row a
 * Mnemo connection wrote is `mnemo`, a row another program wrote is a foreign writer's, and the
 * agent credential comes from the journalled change the row belongs to.
 */
import { agentOfMetaText } from '../port/history-changes.js';
import { badInput } from '../../errors.js';
import type { HistoryChanges, JournalAuthor, Touched } from '../port/history-changes.js';
import type { FeedPosition } from '../port/port.js';
import type { PgFeed } from './pg-feed.js';
import { byKeyNewestFirst, currentEdgeRows, currentMemoryRows, edgeBefore, memoryBefore, rowsAfterInstant, transactionsAfterInstant, withoutRowid, type PgHistoryRow } from './pg-history-rows.js';

/** The memories and edges changed between instants `from.seq` and `to.seq`. Run in one snapshot. */
export function pgChangesBetween(feed: PgFeed, from: FeedPosition, to: FeedPosition): HistoryChanges {
  const epoch = feed.epoch();
  if (from.epoch !== epoch || to.epoch !== epoch) throw badInput('a position from another change feed (another store) cannot be read against this one', { reason: 'other_feed' });
  const db = feed.conn.db();
  const fromRows = rowsAfterInstant(db, feed.table, from.seq);
  const kept = transactionsAfterInstant(db, feed.table, to.seq).xids;
  const between = fromRows.filter((r) => !kept.has(r.xid));
  const touched = byKeyNewestFirst(between);
  const all = byKeyNewestFirst(fromRows);
  const afterTo = (rows: PgHistoryRow[]) => rows.filter((r) => kept.has(r.xid));
  const changeIds = new Set<number>();
  const touch = <T>(key: string, rows: PgHistoryRow[], fromState: T | null, toState: T | null): Touched<T> => {
    const inRange = [...rows].reverse();
    for (const r of inRange) if (r.change_id !== null) changeIds.add(r.change_id);
    return {
      key,
      from: fromState,
      to: toState,
      authors: inRange.map((r) => ({ change_id: r.change_id, writer: r.writer_token === null ? null : 'mnemo', credential_id: null })),
      accessesOnly: inRange.every((r) => r.op === 'access'),
      firstSeq: inRange[0]!.seq,
    };
  };

  const memoriesNow = currentMemoryRows(feed.conn, [...touched.memories.keys()]);
  const memories = [...touched.memories].map(([id, rows]) => {
    const now = memoriesNow.get(id);
    const current = now ? withoutRowid(now) : null;
    return touch(id, rows, memoryBefore(current, all.memories.get(id)!), memoryBefore(current, afterTo(all.memories.get(id)!)));
  });
  const edgesNow = currentEdgeRows(feed.conn, [...touched.edges.values()].map((rows) => rows[0]!.memory_id));
  const edges = [...touched.edges].map(([key, rows]) => {
    const now = edgesNow.get(key);
    const current = now ? withoutRowid(now) : null;
    return touch(key, rows, edgeBefore(current, all.edges.get(key)!), edgeBefore(current, afterTo(all.edges.get(key)!)));
  });
  const journal = journalAuthors(feed, [...changeIds]);
  const credentials = [...new Set([...journal.values()].map((j) => j.credential_id).filter((c): c is string => c !== null))];
  memories.sort((a, b) => a.firstSeq - b.firstSeq);
  edges.sort((a, b) => a.firstSeq - b.firstSeq);
  return { memories, edges, journal, credentialOwners: credentialOwners(feed, credentials) };
}

function journalAuthors(feed: PgFeed, ids: number[]): Map<number, JournalAuthor> {
  const out = new Map<number, JournalAuthor>();
  if (ids.length === 0) return out;
  const rows = feed.rows<{ id: string; label: string; credential_id: string | null; meta: string | null }>(
    `SELECT id::text AS id, label, credential_id, meta FROM ${feed.conn.table('mnemo_journal')} WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  for (const r of rows) out.set(Number(r.id), { label: r.label, credential_id: r.credential_id, agent_owner: agentOfMetaText(r.meta) });
  return out;
}

function credentialOwners(feed: PgFeed, ids: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  for (const r of feed.rows<{ id: string; owner: string }>(`SELECT id, owner FROM ${feed.conn.table('mnemo_agent_credentials')} WHERE id = ANY($1::text[])`, [ids])) {
    out.set(r.id, r.owner);
  }
  return out;
}
