/**
 * What the store port answers for a diff between two positions of the change feed
 * (history-diff.ts reads it; core/observe/store-diff.ts classifies it). Types only.
 */
import { agentOfMeta } from './attribution.js';
import type { MemoryRow } from './codec.js';
import type { EdgeRow } from '../shared/feed-images.js';

/** A full row of nooa's `memories` (every column, the embedding included; `data` as stored). */
export type MemoryImage = Omit<MemoryRow, 'rowid' | 'embedding'> & { embedding: Buffer | null };
/** A full row of nooa's `memory_edges`. */
export type EdgeImage = EdgeRow;

/** Who wrote one feed row: the journal's change (Mnemo), the writer Mnemo stamped, or neither (a foreign writer). */
export interface RowAuthor {
  change_id: number | null;
  /** `mnemo`, `mnemo:cred:<credential id>` (feed-stamp.ts), or null for a writer that is not Mnemo. */
  writer: string | null;
  /** The credential the writer text names. */
  credential_id: string | null;
}

export interface Touched<T> {
  key: string;
  from: T | null;
  to: T | null;
  /** The changes in between, oldest first. */
  authors: RowAuthor[];
  /** Whether every change in between only recorded accesses. */
  accessesOnly: boolean;
  firstSeq: number;
}

/** A journalled change as the diff names it. */
export interface JournalAuthor {
  label: string;
  credential_id: string | null;
  /** The agent a change made without a credential recorded (attribution.ts); null otherwise. */
  agent_owner: string | null;
}

/** The agent named in a journal row's meta text (attribution.ts withAgentMeta), or null. */
export function agentOfMetaText(meta: string | null): string | null {
  if (!meta) return null;
  try {
    return agentOfMeta(JSON.parse(meta));
  } catch {
    return null;
  }
}

export interface HistoryChanges {
  memories: Touched<MemoryImage>[];
  edges: Touched<EdgeImage>[];
  /** The journal's label and credential of every change id the rows name. */
  journal: Map<number, JournalAuthor>;
  /** The owner (role@instance) of every agent credential the rows or their changes name. */
  credentialOwners: Map<string, string>;
}
