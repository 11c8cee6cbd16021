/**
 * Reads that leave a trace. Each returned memory gets one AccessRecord (nooa's template: ts,
 * channel, reader_owner, session_ref, trace_ref, query[:200], score, rank, components) on its
 * ring and in the uncapped event table, in one transaction:
 *   - `recalled` (deliberate recall) and `searched` (hops 0) are touching: strength +1,
 *     last_accessed_at = now;
 *   - `injected` (spontaneous injection) is not: strength, recency and base-level activation
 *     stay as they were;
 *   - `deref` and `reinforced` are touching reads of one memory (`reinforced` also counts a
 *     reinforcement, as nooa's dedup hit and update do).
 */
import type { Engine } from '../engine/engine.js';
import type { AccessChannel } from '../model/enums.js';
import { accessRecord, type AccessComponents, type Memory } from '../model/memory.js';
import { currentTraceRef, emitMemoryEvent } from '../otel.js';
import { explainResult, rankRequest } from './explain.js';
import { resolveRequest, type RecallInput } from './request.js';
import type { RecallItem, RecallResult } from './types.js';
import type { AccessWrite } from '../store/port/port.js';
import { requireMemory, requireMemoryId } from '../store/queries/memory-lookups.js';

export interface Reader {
  owner: string;
  session_ref: string | null;
}

export type ReadChannel = 'recalled' | 'searched' | 'injected';

/** nooa stores `query[:200]`: 200 code points. */
export function clipQuery(query: string): string {
  return [...query].slice(0, 200).join('');
}

/**
 * The memories a recall read for its items, as they were just after its accesses were logged. An
 * in-process caller that shows more of each than an item holds (an agent's recall: importance,
 * strength, references) takes them from here instead of reading and decoding the rows again, which
 * was a twentieth of an agent's recall at 100k. A symbol key: no door serializes it, and it is no
 * part of the contract.
 */
export const RECALLED_MEMORIES: unique symbol = Symbol('recalled memories');

/** A recall's result as an in-process caller may find it (RECALLED_MEMORIES). */
export type WithRecalledMemories = { [RECALLED_MEMORIES]?: ReadonlyMap<string, Memory> };

/**
 * Ranks and logs. `recalled` and `injected` use the profile's hops (unless given) and default
 * k = top_k (5); `searched` always runs with hops 0.
 */
export function recallAndLog(engine: Engine, input: RecallInput, channel: ReadChannel, reader: Reader): RecallResult {
  const req = resolveRequest(engine, channel === 'searched' ? { ...input, hops: 0 } : input, { k: 5 });
  // One check for other processes' commits for the ranking and the rows read with it (the access writes below are ours).
  const { ranking, result } = engine.store.readFresh(() => {
    const ranked = rankRequest(engine, req);
    return { ranking: ranked, result: explainResult(engine, req, ranked) };
  });
  const now = ranking.now;
  const traceRef = currentTraceRef();
  const query = clipQuery(req.query);
  const context = { hops: req.hops, owner: req.owner, k: req.k, profile: req.profile.name };
  const writes: AccessWrite[] = result.rows.map((row) => {
    const components: AccessComponents = { source: row.source, cos: row.cos, rel: row.rel, rec: row.rec, imp: row.imp, spread: row.spread };
    return {
      id: row.id,
      record: accessRecord(now, channel, {
        reader_owner: reader.owner,
        session_ref: reader.session_ref,
        trace_ref: traceRef,
        query,
        score: row.score,
        rank: row.rank,
        components,
      }),
      context,
      terms: row.terms,
    };
  });
  // Never waits for another connection's write lock: the ranking is done, and the accesses only
  // move strength and recency for later recalls (sqlite-access-log.ts).
  engine.store.logAccesses(writes, { deferIfBusy: true });
  const memories = engine.store.getMany(result.rows.map((r) => r.id));
  const items: RecallItem[] = [];
  for (const row of result.rows) {
    const m = memories.get(row.id);
    if (!m) continue;
    items.push({
      id: m.id,
      rank: row.rank,
      score: row.score,
      type: m.type,
      title: m.title,
      content: m.content,
      owner: m.owner,
      tags: m.tags,
      status: m.status,
      ...(row.superseded_by ? { superseded_by: row.superseded_by } : {}),
    });
  }
  const ids = result.rows.map((r) => r.id);
  const where = { dbPath: engine.store.path, owner: reader.owner };
  if (channel === 'injected') {
    emitMemoryEvent('injected', where, { n_memories: ids.length, chars: items.reduce((n, m) => n + m.content.length, 0), memory_ids: ids });
  } else {
    emitMemoryEvent('recalled', where, { query, n_results: ids.length, hops: req.hops, channel, memory_ids: ids });
  }
  const out: RecallResult & WithRecalledMemories = { ...result, channel, logged: writes.length, items };
  out[RECALLED_MEMORIES] = memories;
  return out;
}

/** Logs one touching read of a memory (`deref` or `reinforced`) and returns it as it is after. */
export function touchOne(engine: Engine, idOrPrefix: string, channel: Extract<AccessChannel, 'deref' | 'reinforced'>, reader: Reader, bump = true): Memory {
  const store = engine.store;
  const id = requireMemoryId(store, idOrPrefix);
  store.transaction(() => {
    store.logAccesses([
      {
        id,
        record: accessRecord(engine.now(), channel, { reader_owner: reader.owner, session_ref: reader.session_ref, trace_ref: currentTraceRef() }),
        reinforce: bump,
      },
    ]);
    if (channel === 'reinforced') {
      // Both of nooa's reinforcing paths (dedup hit, update) count the reinforcement.
      const m = requireMemory(store, id);
      m.reinforcement_count += 1;
      store.save(m);
    }
  });
  return requireMemory(store, id);
}
