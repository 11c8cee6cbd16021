/**
 * The belief rows the journal snapshots and restores on SQLite (alias merges and rejected pairs,
 * shared/belief-journal-targets.ts), read and written on the bare connection: a snapshot is taken
 * before the change's first write, whatever the belief tables' state, and a restore runs inside the
 * journal's own transaction.
 */
import type { AliasRow, RejectionRow } from '../port/belief-rows.js';
import { beliefJournalTargets, type BeliefJournalRows } from '../shared/belief-journal-targets.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { connectionOf } from './connection.js';
import { cachedStatement } from './sqlite.js';

const ALIAS_COLS = 'alias, canonical, divergence, shared, merged_at';
const REJECTION_COLS = 'a, b, rejected_at';

function sqliteBeliefRows(store: StoreHandle): BeliefJournalRows {
  const st = (sql: string) => cachedStatement(connectionOf(store), sql);
  return {
    alias: (name) => (st(`SELECT ${ALIAS_COLS} FROM mnemo_entity_aliases WHERE alias = ?`).get(name) as AliasRow | undefined) ?? null,
    rejection: (a, b) => (st(`SELECT ${REJECTION_COLS} FROM mnemo_alias_rejections WHERE a = ? AND b = ?`).get(a, b) as RejectionRow | undefined) ?? null,
    putAlias: (a) => void st(`INSERT OR REPLACE INTO mnemo_entity_aliases(${ALIAS_COLS}) VALUES (?, ?, ?, ?, ?)`).run(a.alias, a.canonical, a.divergence, a.shared, a.merged_at),
    deleteAlias: (name) => void st('DELETE FROM mnemo_entity_aliases WHERE alias = ?').run(name),
    putRejection: (a, b, at) => void st(`INSERT OR REPLACE INTO mnemo_alias_rejections(${REJECTION_COLS}) VALUES (?, ?, ?)`).run(a, b, at),
    deleteRejection: (a, b) => void st('DELETE FROM mnemo_alias_rejections WHERE a = ? AND b = ?').run(a, b),
  };
}

export const [beliefAliasTarget, beliefRejectionTarget] = beliefJournalTargets<StoreHandle>(sqliteBeliefRows);

/** BM25 over delta evidence in the store's FTS5 table (lower is better); `match` is an FTS5 query string. */
export function searchSqliteEvidence(store: object, match: string, limit: number): { id: number; score: number }[] {
  return cachedStatement(connectionOf(store), 'SELECT rowid AS id, bm25(mnemo_delta_fts) AS score FROM mnemo_delta_fts WHERE mnemo_delta_fts MATCH ? ORDER BY score LIMIT ?').all(match, limit) as {
    id: number;
    score: number;
  }[];
}

/** Adds a range of new deltas to the evidence index (one statement: far faster than per row). */
export function indexSqliteEvidence(store: object, firstId: number, lastId: number): void {
  cachedStatement(connectionOf(store), "INSERT INTO mnemo_delta_fts(rowid, evidence) SELECT id, evidence FROM mnemo_deltas WHERE id BETWEEN ? AND ? AND evidence != ''").run(firstId, lastId);
}
