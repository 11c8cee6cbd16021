/** The access audit's rows as the doors show them (observe's access log and recall's replay share it). */
import type { CredentialRef } from '../model/agent-credential.js';
import type { AccessEventView } from '../model/access-event.js';
import { memoryHead } from '../model/memory.js';
import { isCrossOwner } from '../model/owner.js';
import type { AuditEvent } from '../store/port/port.js';

/** One audit row as the audit and replay show it (the read memory's head, whether the read crossed owners). */
export function eventView(e: AuditEvent, credentials: ReadonlyMap<string, CredentialRef> = new Map()): AccessEventView {
  return {
    event_id: e.event_id,
    memory_id: e.memory_id,
    ts: e.ts,
    channel: e.channel,
    reader_owner: e.reader_owner,
    session_ref: e.session_ref,
    trace_ref: e.trace_ref,
    query: e.query,
    score: e.score,
    rank: e.rank,
    components: e.components,
    strength_after: e.strength_after,
    reinforce: e.reinforce,
    backfilled: e.backfilled,
    memory_owner: e.memory_owner,
    memory_type: e.memory_type,
    head: e.content === null ? null : memoryHead({ title: e.title, content: e.content }),
    cross_owner: e.memory_owner !== null && isCrossOwner(e.reader_owner, e.memory_owner),
    context: (e.context as AccessEventView['context']) ?? null,
    terms: e.terms ?? null,
    credential: e.credential_id ? (credentials.get(e.credential_id) ?? { id: e.credential_id, owner: null, label: null }) : null,
  };
}
