/**
 * The rows recall's derived indexes are built from (the corpus, the adjacency lists, the keyword,
 * entity and part-of indexes). The queries live here so recall never writes SQL: an index asks
 * for its source rows by name and keeps only its own in-memory structures.
 */
import { connectionOf, statementOf } from './connection.js';
import type { EdgeType } from '../../model/enums.js';
import { jsonField, jsonReadable } from './json-sql.js';
import type { RowSource } from '../shared/store-handle.js';

/** One memory as a derived index reads it (`data` is the row's JSON text). */
export interface SourceRow {
  rowid: number;
  id: string;
  owner: string;
  content: string;
  archived: number;
  data: string;
}

export interface SourceEdge {
  src: string;
  dst: string;
  type: EdgeType;
  weight: number;
  created_at: number;
}

/** A live memory's title, content and tags, read in C by json_extract (no JSON.parse of its ring). */
export interface BodyRow {
  id: string;
  owner: string;
  title: string | null;
  content: string;
  tags: string | null;
  /** 0 when SQLite cannot read the row's JSON (then title and tags read as NULL). */
  readable: number;
}

/** A memory's embedding as the vector index reads it. */
export interface VectorRow {
  rowid: number;
  id: string;
  owner: string;
  archived: number;
  embedding: Buffer | null;
}

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

/** Every live memory's entities as JSON text (NULL when it has none or its JSON is unreadable). */
export function liveEntities(store: RowSource): { id: string; entities: string | null }[] {
  return connectionOf(store).prepare(`SELECT id, ${jsonField('data', '$.entities')} AS entities FROM memories WHERE archived = 0`).all() as { id: string; entities: string | null }[];
}

/** Every edge, in rowid order. */
export function allEdges(store: RowSource): Iterable<SourceEdge> {
  return connectionOf(store).prepare('SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY rowid').iterate() as Iterable<SourceEdge>;
}

/** The edges of one type, in rowid order. */
export function edgesOfType(store: RowSource, type: EdgeType): { src: string; dst: string }[] {
  return statementOf(store, 'SELECT src, dst FROM memory_edges WHERE type = ? ORDER BY rowid').all(type) as { src: string; dst: string }[];
}

/** The targets of one memory's edges of one type, in rowid order. */
export function edgeTargets(store: RowSource, src: string, type: EdgeType): string[] {
  return (statementOf(store, 'SELECT dst FROM memory_edges WHERE src = ? AND type = ? ORDER BY rowid').all(src, type) as { dst: string }[]).map((r) => r.dst);
}
