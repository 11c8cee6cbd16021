/**
 * The uncapped access-event table. The ring on each record keeps the last 64 accesses (and travels
 * with an exported record); this table keeps all of them, so the earliest accesses that explain
 * how a memory became established are never lost.
 */
import type { AccessComponents, AccessRecord } from '../../model/memory.js';
import type { ScoreTerms } from '../../model/memory.js';
import { storedAccessEntrySchema } from '../../model/schemas.js';
import { currentCredentialId } from '../port/attribution.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { AccessEvent, EventFilter } from '../port/event-rows.js';

/** The event table's columns an insert writes, in the order accessEventValues gives them. */
export const ACCESS_EVENT_COLUMNS = [
  'memory_id',
  'ts',
  'channel',
  'reader_owner',
  'session_ref',
  'trace_ref',
  'query',
  'score',
  'rank',
  'source',
  'components',
  'strength_after',
  'reinforce',
  'backfilled',
  'context',
  'terms',
  'credential_id',
] as const;

/** One access as the event table's row values (ACCESS_EVENT_COLUMNS order), for either adapter's insert. */
export function accessEventValues(
  memoryId: string,
  r: AccessRecord,
  strengthAfter: number | null,
  reinforce: boolean,
  backfilled: boolean,
  context: Record<string, unknown> | null,
  terms: ScoreTerms | null,
  credentialId: string | null,
): unknown[] {
  return [
    memoryId,
    r.ts,
    r.channel,
    r.reader_owner ?? '',
    r.session_ref,
    r.trace_ref,
    r.query,
    r.score,
    r.rank,
    r.components?.source ?? null,
    r.components ? JSON.stringify(r.components) : null,
    strengthAfter,
    reinforce ? 1 : 0,
    backfilled ? 1 : 0,
    context ? JSON.stringify(context) : null,
    terms ? JSON.stringify(terms) : null,
    credentialId,
  ];
}

const INSERT_EVENT_SQL = `INSERT INTO mnemo_access_events(${ACCESS_EVENT_COLUMNS.join(', ')}) VALUES (${ACCESS_EVENT_COLUMNS.map(() => '?').join(', ')})`;

export function insertAccessEvent(
  db: DB,
  memoryId: string,
  r: AccessRecord,
  strengthAfter: number | null,
  reinforce: boolean,
  backfilled = false,
  context: Record<string, unknown> | null = null,
  terms: ScoreTerms | null = null,
  credentialId: string | null = currentCredentialId(),
): number {
  // Kept prepared: every recall inserts one row per memory it returns, and preparing was a fifth of that.
  const info = cachedStatement(db, INSERT_EVENT_SQL)
    .run(...accessEventValues(memoryId, r, strengthAfter, reinforce, backfilled, context, terms, credentialId));
  return Number(info.lastInsertRowid);
}

/** Copies every ring entry already on disk into the event table, when the table is first created. */
export function backfillAccessEvents(db: DB): void {
  const rows = db.prepare('SELECT id, data FROM memories ORDER BY rowid').iterate() as Iterable<{ id: string; data: string }>;
  const batch: { id: string; rec: AccessRecord }[] = [];
  for (const row of rows) for (const rec of accessRingEntries(row.data)) batch.push({ id: row.id, rec });
  // Entries from before the table existed: no credential made them, whatever call triggered the copy.
  for (const b of batch) insertAccessEvent(db, b.id, b.rec, null, true, true, null, null, null);
}

/** The valid entries of a memory's access ring (nooa's `data` JSON), in ring order; none when the JSON does not parse. */
export function accessRingEntries(data: string): AccessRecord[] {
  let log: unknown[];
  try {
    const parsed = JSON.parse(data) as { access_log?: unknown[] };
    log = Array.isArray(parsed.access_log) ? parsed.access_log : [];
  } catch {
    return [];
  }
  const out: AccessRecord[] = [];
  for (const entry of log) {
    const rec = storedAccessEntrySchema.safeParse(entry);
    if (rec.success) out.push(rec.data as AccessRecord);
  }
  return out;
}

export interface EventRow {
  id: number;
  memory_id: string;
  ts: number;
  channel: AccessRecord['channel'];
  reader_owner: string;
  session_ref: string | null;
  trace_ref: string | null;
  query: string | null;
  score: number | null;
  rank: number | null;
  components: string | null;
  strength_after: number | null;
  reinforce: number;
  backfilled: number;
  context?: string | null;
  terms?: string | null;
  credential_id?: string | null;
}

export function rowToEvent(r: EventRow): AccessEvent {
  return {
    event_id: r.id,
    memory_id: r.memory_id,
    ts: r.ts,
    channel: r.channel,
    reader_owner: r.reader_owner,
    session_ref: r.session_ref,
    trace_ref: r.trace_ref,
    query: r.query,
    score: r.score,
    rank: r.rank,
    components: r.components ? (JSON.parse(r.components) as AccessComponents) : null,
    strength_after: r.strength_after,
    reinforce: r.reinforce !== 0,
    backfilled: r.backfilled !== 0,
    context: r.context ? (JSON.parse(r.context) as Record<string, unknown>) : null,
    terms: r.terms ? (JSON.parse(r.terms) as ScoreTerms) : null,
    credential_id: r.credential_id ?? null,
  };
}

export function hasEventTable(db: DB): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_access_events'").get() !== undefined;
}

/**
 * The filter as a condition with `?` placeholders, for either adapter. `like` is the operator that
 * matches the query text as SQLite's LIKE does (ASCII case folded): LIKE on SQLite, ILIKE on
 * PostgreSQL's byte-order text.
 */
export function eventFilterSql(f: EventFilter, like: 'LIKE' | 'ILIKE' = 'LIKE'): { where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.memoryId) {
    where.push('memory_id = ?');
    params.push(f.memoryId);
  }
  if (f.channels?.length) {
    where.push(`channel IN (${f.channels.map(() => '?').join(',')})`);
    params.push(...f.channels);
  }
  if (f.readerOwner !== undefined) {
    where.push('reader_owner = ?');
    params.push(f.readerOwner);
  }
  if (f.query) {
    where.push(`query ${like} ? ESCAPE '\\'`);
    params.push(`%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (f.since !== undefined) {
    where.push('ts >= ?');
    params.push(f.since);
  }
  if (f.until !== undefined) {
    where.push('ts <= ?');
    params.push(f.until);
  }
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export function queryEvents(db: DB, f: EventFilter): { total: number; events: AccessEvent[] } {
  if (!hasEventTable(db)) return { total: 0, events: [] };
  const { where: w, params } = eventFilterSql(f);
  const total = (db.prepare(`SELECT count(*) AS n FROM mnemo_access_events ${w}`).get(...params) as { n: number }).n;
  const order = f.order === 'asc' ? 'ASC' : 'DESC';
  const rows = db
    .prepare(`SELECT * FROM mnemo_access_events ${w} ORDER BY ts ${order}, id ${order} LIMIT ? OFFSET ?`)
    .all(...params, f.limit ?? 100, f.offset ?? 0) as EventRow[];
  return { total, events: rows.map(rowToEvent) };
}
