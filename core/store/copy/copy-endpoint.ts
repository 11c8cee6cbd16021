/**
 * The two ends of `mnemo copy`, whatever the backend: a source read in one snapshot, batch by batch
 * in key order, and a target written one batch per transaction, each batch committed together with
 * the progress record that says how far the copy got (so a copy killed at any instant resumes from
 * its last committed batch, without duplicates).
 *
 * Rows travel as arrays in `copyColumns(spec)` order, each value in the JavaScript type of its
 * storage class: integer → bigint (64 bits exact), real → number, text → string, blob → Uint8Array,
 * NULL → null. A value of another class than its column declares is refused by the source
 * (copy-values.ts), so a target never guesses.
 */
import { createHash } from 'node:crypto';
import type { TableSpec } from './store-tables.js';

export type CopyValue = bigint | number | string | Uint8Array | null;
export type CopyRow = CopyValue[];

/** What a source is: read once, in the snapshot the copy reads from. */
export interface SourceFacts {
  /** nooa's schema version (SQLite's `user_version`): 2. */
  nooaVersion: number;
  /** Whether the store has Mnemo's tables (a nooa-only store has none, and its copy gets none). */
  hasMnemo: boolean;
  /** Rows per table (only tables the copy moves). */
  counts: Record<string, number>;
  /** The feed's sequence: the last number handed out (SQLite's sqlite_sequence), or null when none was. */
  feedSequence: bigint | null;
  /** A fingerprint of the source's content, recorded in the target: a resume continues only a copy of the same source, unchanged. */
  signature: string;
}

export interface CopySource {
  readonly shown: string;
  /** Starts the snapshot every later read sees, and says what kind of store it is (counts and signature come from `describe`). */
  open(): SourceFacts;
  /** Row counts and the fingerprint of the tables the copy moves. */
  describe(facts: SourceFacts, tables: readonly TableSpec[]): SourceFacts;
  /** Refuses, with a typed error naming table, row, column and fix, a value the target could not keep exactly. */
  check(spec: TableSpec, forPostgres: boolean): void;
  /** Up to `limit` rows after the key `after` (null: from the first), in key order. */
  readBatch(spec: TableSpec, after: CopyValue[] | null, limit: number): CopyRow[];
  close(): void;
}

export interface TableProgress {
  /** The key of the last row copied (copy order), or null before the first. */
  after: CopyValue[] | null;
  rows: number;
}

export type TargetState =
  | { kind: 'empty' }
  /** An unfinished copy: the source it copies and how far each table got. */
  | { kind: 'partial'; signature: string; progress: Map<string, TableProgress> }
  | { kind: 'store' };

export interface CopyTarget {
  readonly shown: string;
  state(): TargetState;
  /** Makes the empty store (the tables the source has) and records the source, in one transaction. */
  prepare(facts: SourceFacts, tables: readonly TableSpec[]): void;
  /** Writes rows and the table's new progress in one transaction. */
  writeBatch(spec: TableSpec, rows: CopyRow[], progress: TableProgress): void;
  /** What the target derives or keeps beside the rows (sequences, triggers, indexes), and drops the progress record: one transaction. */
  finish(facts: SourceFacts, tables: readonly TableSpec[]): void;
  close(): void;
}

/** The name of the progress table a copy keeps in its target until it completes. */
export const PROGRESS_TABLE = 'mnemo_copy_progress';

/** Progress as stored: the key as text (integers in decimal, so 64 bits survive JSON). */
export function encodeProgress(p: TableProgress): string {
  return JSON.stringify({ rows: p.rows, after: p.after === null ? null : p.after.map((v) => (typeof v === 'bigint' ? { int: v.toString() } : v)) });
}

export function decodeProgress(text: string): TableProgress {
  const raw = JSON.parse(text) as { rows: number; after: (string | number | null | { int: string })[] | null };
  return {
    rows: raw.rows,
    after: raw.after === null ? null : raw.after.map((v) => (v !== null && typeof v === 'object' ? BigInt(v.int) : v)),
  };
}

/** A fingerprint of what a source holds: row counts, last keys, the meta rows and the sequence. */
export function signatureOf(parts: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(parts, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)))
    .digest('hex');
}
