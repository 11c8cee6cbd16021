/**
 * What the store port answers for a diff between two positions of the change feed
 * (history-diff.ts reads it; core/observe/store-diff.ts classifies it). Types only.
 */
import type { EdgeImage, MemoryImage } from './history-rollback.js';

export type { EdgeImage, MemoryImage } from './history-rollback.js';

/** Who wrote one feed row: the journal's change (Mnemo), the writer Mnemo stamped, or neither (a foreign writer). */
export interface RowAuthor {
  change_id: number | null;
  writer: string | null;
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
  owner: string | null;
}

export interface HistoryChanges {
  memories: Touched<MemoryImage>[];
  edges: Touched<EdgeImage>[];
  /** The journal's label and credential of every change id the rows name. */
  journal: Map<number, JournalAuthor>;
}
