/**
 * The reads behind a diff between two instants: every memory and edge the change feed touched
 * between two positions, its row at each end (rolled back from its current row, feed-images.ts)
 * and who wrote each change in between. Classifying the differences is core/observe/store-diff.ts.
 */
import { agentOfMetaText } from '../port/history-changes.js';
import { connectionOf } from './connection.js';
import { feedRowsAfter, rollBackEdges, rollBackMemories } from './history-views.js';
import type { FeedRow } from '../shared/feed-images.js';
import type { HistoryChanges, JournalAuthor, Touched } from '../port/history-changes.js';
import type { FeedPosition } from '../port/port.js';
import type { DB } from './sqlite.js';

/** The agent credential a Mnemo writer text names (`mnemo:cred:<id>`, feed-stamp.ts); null for any other writer. */
function writerCredential(writer: string | null): string | null {
  return writer?.startsWith('mnemo:cred:') ? writer.slice('mnemo:cred:'.length) : null;
}

/** The memories and edges changed in (from, to], with their rows at both ends. Run in one read transaction. */
export function changesBetween(store: object, from: FeedPosition, to: FeedPosition): HistoryChanges {
  const db = connectionOf(store);
  const { memories, edges } = feedRowsAfter(db, from.seq);
  // Keys changed after `from` but only after `to` too are the same at both ends.
  const between = (rows: Map<string, FeedRow[]>) => new Map([...rows].filter(([, list]) => list.some((r) => r.seq <= to.seq)));
  const touchedMemories = between(memories);
  const touchedEdges = between(edges);
  const memoriesThen = rollBackMemories(db, touchedMemories, from.seq);
  const memoriesAt = rollBackMemories(db, touchedMemories, to.seq);
  const edgesThen = rollBackEdges(db, touchedEdges, from.seq);
  const edgesAt = rollBackEdges(db, touchedEdges, to.seq);
  const changeIds = new Set<number>();
  const credentialIds = new Set<string>();
  const touched = <T>(key: string, rows: FeedRow[], fromState: T | null, toState: T | null): Touched<T> => {
    const inRange = rows.filter((r) => r.seq <= to.seq).reverse();
    for (const r of inRange) {
      if (r.change_id !== null) changeIds.add(r.change_id);
      const credential = writerCredential(r.writer);
      if (credential !== null) credentialIds.add(credential);
    }
    return {
      key,
      from: fromState,
      to: toState,
      authors: inRange.map((r) => ({ change_id: r.change_id, writer: r.writer, credential_id: writerCredential(r.writer) })),
      accessesOnly: inRange.every((r) => r.op === 'access'),
      firstSeq: inRange[0]!.seq,
    };
  };
  const memoryChanges = [...touchedMemories].map(([id, rows]) => touched(id, rows, memoriesThen.get(id)!.then, memoriesAt.get(id)!.then));
  const edgeChanges = [...touchedEdges].map(([key, rows]) => touched(key, rows, edgesThen.get(key)!.then, edgesAt.get(key)!.then));
  const journal = journalAuthors(db, [...changeIds]);
  for (const j of journal.values()) if (j.credential_id !== null) credentialIds.add(j.credential_id);
  const out: HistoryChanges = { memories: memoryChanges, edges: edgeChanges, journal, credentialOwners: credentialOwners(db, [...credentialIds]) };
  out.memories.sort((a, b) => a.firstSeq - b.firstSeq);
  out.edges.sort((a, b) => a.firstSeq - b.firstSeq);
  return out;
}

function journalAuthors(db: DB, ids: number[]): Map<number, JournalAuthor> {
  const out = new Map<number, JournalAuthor>();
  if (ids.length === 0) return out;
  const rows = db.prepare('SELECT id, label, credential_id, meta FROM mnemo_journal WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as {
    id: number;
    label: string;
    credential_id: string | null;
    meta: string | null;
  }[];
  for (const r of rows) out.set(r.id, { label: r.label, credential_id: r.credential_id, agent_owner: agentOfMetaText(r.meta) });
  return out;
}

function credentialOwners(db: DB, ids: string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (ids.length === 0 || db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'mnemo_agent_credentials'").get() === undefined) return out;
  const rows = db.prepare('SELECT id, owner FROM mnemo_agent_credentials WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: string; owner: string }[];
  for (const r of rows) out.set(r.id, r.owner);
  return out;
}
