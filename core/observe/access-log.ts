/**
 * The access audit list: the uncapped event table when the store has one, otherwise every ring
 * entry of every record (what a plain nooa store keeps: the last 64 accesses per memory).
 */
import type { EngineReader } from '../engine/engine.js';
import { isCrossOwner } from '../model/owner.js';
import { memoryHead } from '../model/memory.js';
import { eventView } from '../engine/event-view.js';
import { untilAsOf } from '../model/history.js';
import type { AccessEventView, AccessListResult } from './access-types.js';
import type { AuditFilter } from '../store/port/port.js';

export function listAccesses(engine: EngineReader, f: AuditFilter): AccessListResult {
  // As of an instant, the accesses logged up to it (a replay as of then still finds a later one by id: auditEvents is not bounded).
  const filter = { ...f, until: untilAsOf(engine.store.history, f.until) };
  if (f.memoryId !== undefined) filter.memoryId = engine.store.resolveId(f.memoryId) ?? f.memoryId;
  const fromTable = engine.store.queries.auditEvents(filter);
  if (fromTable) {
    const credentials = engine.store.queries.credentialRefs();
    return { source: 'events', total: fromTable.total, events: fromTable.events.map((e) => eventView(e, credentials)) };
  }
  return { source: 'rings', ...fromRings(engine, filter) };
}

function fromRings(engine: EngineReader, f: AuditFilter): { total: number; events: AccessEventView[] } {
  const all: AccessEventView[] = [];
  // The rings record no credential: every access in them was made without one.
  if (f.credentialId !== undefined && f.credentialId !== null) return { total: 0, events: [] };
  const q = f.query?.toLowerCase();
  for (const m of engine.store.queries.iterUsageRecords({ includeArchived: true })) {
    if (f.memoryId !== undefined && m.id !== f.memoryId) continue;
    const head = memoryHead(m);
    for (const e of m.access_log) {
      if (f.channels?.length && !f.channels.includes(e.channel)) continue;
      if (f.readerOwner !== undefined && e.reader_owner !== f.readerOwner) continue;
      const cross = isCrossOwner(e.reader_owner, m.owner);
      if (f.crossOwnerOnly && !cross) continue;
      if (q && !(e.query ?? '').toLowerCase().includes(q)) continue;
      if (f.since !== undefined && e.ts < f.since) continue;
      if (f.until !== undefined && e.ts > f.until) continue;
      if (f.ts !== undefined && e.ts !== f.ts) continue;
      all.push({
        event_id: null,
        memory_id: m.id,
        ts: e.ts,
        channel: e.channel,
        reader_owner: e.reader_owner,
        session_ref: e.session_ref,
        trace_ref: e.trace_ref,
        query: e.query,
        score: e.score,
        rank: e.rank,
        components: e.components,
        strength_after: null,
        reinforce: true,
        backfilled: false,
        memory_owner: m.owner,
        memory_type: m.type,
        head,
        cross_owner: cross,
        context: null,
        terms: null,
        credential: null,
      });
    }
  }
  const dir = f.order === 'asc' ? 1 : -1;
  all.sort((a, b) => dir * (a.ts - b.ts));
  const offset = f.offset ?? 0;
  return { total: all.length, events: all.slice(offset, offset + (f.limit ?? 100)) };
}
