/**
 * The rows the derived indexes and a reflection plan are built from: live vectors, bodies and edges,
 * every memory and edge row, and the text the list's search indexes.
 */
import type { EdgeType } from '../../model/enums.js';
import type { MemoryRow } from './codec.js';

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

export interface SourceEdge {
  src: string;
  dst: string;
  type: EdgeType;
  weight: number;
  created_at: number;
}

/** One memory as a derived index reads it (`data` is the row's JSON text). */
export interface SourceRow {
  rowid: number;
  id: string;
  owner: string;
  content: string;
  archived: number;
  data: string;
}

/** A memory's embedding as the vector index reads it. */
export interface VectorRow {
  rowid: number;
  id: string;
  owner: string;
  archived: number;
  embedding: Buffer | null;
}

/** The in-scope checks of a plan's first pass need only these. */
export interface EmbeddingRow {
  id: string;
  archived: number;
  owner: string;
  embedding: Buffer | null;
}

export interface RawEdgeRow {
  rowid: number;
  src: string;
  dst: string;
  type: string;
  weight: number;
  created_at: number;
}

/** A memory row with every column present. */
export type RawMemoryRow = Required<MemoryRow>;

/** A memory's text as the index takes it: the title field of its JSON, null when absent or unreadable. */
export interface TextRow {
  id: string;
  title: string | null;
  content: string;
}

/** How an adapter reads the memories' text (every memory, archived ones too). */
export interface TextRows {
  all(): Iterable<TextRow>;
  one(id: string): TextRow | undefined;
}
