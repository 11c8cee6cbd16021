/**
 * The rows recall's derived indexes are built from (the corpus, the adjacency lists, the keyword,
 * entity and part-of indexes). The queries live here so recall never writes SQL: an index asks
 * for its source rows by name and keeps only its own in-memory structures.
 */
import { connectionOf, statementOf } from './connection.js';
import { jsonField, jsonReadable } from '../shared/json-sql.js';
import type { RowSource } from '../shared/store-handle.js';
import type { BodyRow, SourceRow, VectorRow } from '../port/source-rows.js';

/** Every live memory's embedding, in rowid order. */
export function liveVectorRows(store: RowSource): Iterable<VectorRow> {
  return connectionOf(store).prepare('SELECT rowid, id, owner, archived, embedding FROM memories WHERE archived = 0 ORDER BY rowid').iterate() as Iterable<VectorRow>;
}

/** One memory's embedding by id, archived or not; undefined when it is gone. */
export function vectorRow(store: RowSource, id: string): VectorRow | undefined {
  return statementOf(store, 'SELECT rowid, id, owner, archived, embedding FROM memories WHERE id = ?').get(id) as VectorRow | undefined;
}

/** One memory by id, archived or not; undefined when it is gone. */
export function sourceRow(store: RowSource, id: string): SourceRow | undefined {
  return statementOf(store, 'SELECT rowid, id, owner, content, archived, data FROM memories WHERE id = ?').get(id) as SourceRow | undefined;
}

/** Every live memory, in rowid order. */
export function liveSourceRows(store: RowSource): Iterable<SourceRow> {
  return connectionOf(store).prepare('SELECT rowid, id, owner, content, archived, data FROM memories WHERE archived = 0 ORDER BY rowid').iterate() as Iterable<SourceRow>;
}

/** Every live memory's title, content and tags, in rowid order. */
export function liveBodies(store: RowSource): BodyRow[] {
  return connectionOf(store)
    .prepare(
      `SELECT id, owner, ${jsonField('data', '$.title')} AS title, content, ${jsonField('data', '$.tags')} AS tags, ${jsonReadable('data')} AS readable
       FROM memories WHERE archived = 0 ORDER BY rowid`,
    )
    .all() as BodyRow[];
}
