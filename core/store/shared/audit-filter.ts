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

export interface AuditDialect {
  /** An SQL expression for the role part of an owner column (`coder` of `coder@1`). */
  role: (col: string) => string;
  /** The operator matching `e.query` against a %-pattern, ASCII case folded (LIKE on SQLite). */
  like: string;
  /** False on an older SQLite schema without `credential_id`: every access was made without one. */
  hasCredentialColumn: boolean;
}

/** The conditions (joined with AND; empty when none) and their `?` parameters, in order. */
export function auditWhere(f: AuditFilter, d: AuditDialect): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const equals = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  const inList = (col: string, values: readonly unknown[]) => {
    where.push(`${col} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  if (f.channels?.length) inList('e.channel', f.channels);
  if (f.readerOwner !== undefined) equals('e.reader_owner = ?', f.readerOwner);
  if (f.crossOwnerOnly) where.push(`e.reader_owner != '' AND m.owner != '' AND ${d.role('e.reader_owner')} != ${d.role('m.owner')}`);
  if (f.query) equals(`e.query ${d.like} ? ESCAPE '\\'`, `%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (f.memoryId !== undefined) equals('e.memory_id = ?', f.memoryId);
  if (f.since !== undefined) equals('e.ts >= ?', f.since);
  if (f.until !== undefined) equals('e.ts <= ?', f.until);
  if (f.ts !== undefined) equals('e.ts = ?', f.ts);
  if (f.eventIds?.length) inList('e.id', f.eventIds);
  if (f.credentialId !== undefined) {
    if (!d.hasCredentialColumn) {
      if (f.credentialId !== null) where.push('0 = 1');
    } else if (f.credentialId === null) where.push('e.credential_id IS NULL');
    else equals('e.credential_id = ?', f.credentialId);
  }
  return { where, params };
}
