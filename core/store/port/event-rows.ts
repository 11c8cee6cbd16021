/**
 * The rows of the access log as the port returns them: access events and their filter, sessions, the
 * audit log, logged recalls, and nooa's maintenance log.
 */
import type { AccessRecord, ScoreTerms } from '../../model/memory.js';

export interface AccessEvent extends AccessRecord {
  event_id: number;
  memory_id: string;
  strength_after: number | null;
  reinforce: boolean;
  backfilled: boolean;
  /** How the access was made (recall: hops, owner scope, k, profile), when recorded. */
  context: Record<string, unknown> | null;
  /** The score's named contributions as the recall computed them. Only this event table keeps them: the ring keeps nooa's fields. */
  terms: ScoreTerms | null;
  /** The agent credential the access was made with (null: none, or logged before credentials existed). */
  credential_id: string | null;
}

export interface EventFilter {
  memoryId?: string;
  channels?: string[];
  readerOwner?: string;
  query?: string;
  since?: number;
  until?: number;
  limit?: number;
  offset?: number;
  order?: 'asc' | 'desc';
}

export interface SessionEvent {
  event_id: number;
  ts: number;
  channel: string;
  reader_owner: string;
  session_ref: string;
  query: string | null;
  memory_id: string;
  /** The owner scope the access ran under (a recall's context), null when not logged. */
  owner: string | null;
}

export interface AuditEvent extends AccessEvent {
  memory_owner: string | null;
  memory_type: string | null;
  title: string | null;
  content: string | null;
}

export interface LoggedRecall {
  query: string;
  reader_owner: string;
  /** The owner scope the latest of these recalls ran under (null: everyone, or not logged). */
  scope: string | null;
  /** How many accesses (one per returned memory) the query logged. */
  accesses: number;
  first_ts: number;
  last_ts: number;
}

export interface MaintenanceEntry {
  ts: number;
  kind: string;
  report: unknown;
  /** 'undone' when the journal change that made this pass was undone since. */
  state: 'applied' | 'undone';
  change_id: number | null;
}

/**
 * The WHERE clause of the Access audit's filters (AuditFilter), one for both adapters: SQLite's
 * (access-queries.ts) and PostgreSQL's (pg/pg-audit.ts) differ only in how they take an owner's
 * role part, which operator matches the query text as SQLite's LIKE does, and whether the
 * credential column exists (a store opened read-only may keep a schema from before it).
 */
export interface AuditFilter {
  channels?: string[] | undefined;
  readerOwner?: string | undefined;
  crossOwnerOnly?: boolean | undefined;
  query?: string | undefined;
  memoryId?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  order?: 'asc' | 'desc' | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  /** Exact event ids (replay looks up one, and the siblings of a recall). */
  eventIds?: number[] | undefined;
  ts?: number | undefined;
  /** Only the accesses made with this credential; null: only those made without one. */
  credentialId?: string | null | undefined;
}
