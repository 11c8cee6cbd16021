import { badInput } from '../../errors.js';
import { toLabel } from '../../model/ladders.js';
import { memoryHead, type Memory } from '../../model/memory.js';
import { addMemory, archiveMemories, updateMemory } from '../../engine/memory-ops.js';
import { DEFAULT_FORGET_POLICY } from '../../forget/policy.js';
import { derivedIndexKey } from '../../engine/derived-key.js';
import { resolutionsOf } from '../../engine/resolutions.js';
import type { EngineReader } from '../../engine/engine.js';
import type { EdgeView, MemoryDetail, MemorySummary } from '../contract/index.js';
import { MAX_SELECT_IDS, type memoryContract } from '../contract/memory.js';
import { tagMemories } from '../../engine/tag-ops.js';
import { deleteMemories, forgetMemories, mergeMemories, mergeOrder } from '../../engine/curation.js';
import type { HandlersFor } from './types.js';
import { patchFromInput } from './shared/memory-patch.js';
import { newTextSearch } from '../../store/derived/text-search.js';
import { eraseSelectorOf, runEraseJob } from './shared/erase-job.js';
import { planEraseOf, type EraseReceipt } from '../../erase/erase.js';
import { memoryEmbedding, requireMemory } from '../../store/queries/memory-lookups.js';

export function memoryDetail(engine: EngineReader, idOrPrefix: string): MemoryDetail {
  const store = engine.store;
  const memory = requireMemory(store, idOrPrefix);
  const targets = store.getMany([...memory.edges.map((e) => e.target_id), ...store.incoming(memory.id).map((e) => e.src)]);
  const view = (id: string, e: { type: string; weight: number; created_at: number }): EdgeView => {
    const t = targets.get(id);
    return {
      id,
      type: e.type,
      weight: e.weight,
      created_at: e.created_at,
      head: t ? memoryHead(t) : null,
      memory_type: t?.type ?? null,
      owner: t?.owner ?? null,
      archived: t ? t.archived : null,
      exists: t !== undefined,
    };
  };
  // The registry is read as it is now; the instant shown only counts resolutions made by then.
  const superseded = resolutionsOf(engine).supersededAt(store, store.history?.at).get(memory.id);
  const by = superseded ? store.get(superseded.by) : null;
  return {
    memory,
    labels: {
      importance: toLabel('importance', memory.importance),
      salience: toLabel('salience', memory.salience),
      confidence: toLabel('confidence', memory.confidence),
    },
    superseded: superseded ? { by: superseded.by, by_head: by ? memoryHead(by) : null, at: superseded.at } : null,
    outgoing: memory.edges.map((e) => view(e.target_id, e)),
    incoming: store.incoming(memory.id).map((e) => view(e.src, e)),
    has_embedding: memoryEmbedding(store, memory.id) !== null,
  };
}

const TEXT_SEARCH_INDEX = derivedIndexKey('memory.textSearch', (engine) =>
  // Persisted beside the store only when the store has a change feed to catch it up with.
  newTextSearch(engine.store, engine.store.feedPosition() ? engine.indexSnapshots.sidecar() : null),);

/** Text search through the FTS5 index beside the store (see core/store/derived/text-search.ts), then SQL for the rest. */
export function textFilter<F extends { text?: string | undefined; ids?: string[] | undefined }>(engine: EngineReader, input: F): F {
  if (!input.text?.trim()) return input;
  const index = engine.get(TEXT_SEARCH_INDEX).get();
  let ids = index.match(input.text.trim().split(/\s+/));
  if (input.ids) {
    const allowed = new Set(input.ids);
    ids = ids.filter((id) => allowed.has(id));
  }
  return { ...input, text: undefined, ids: ids.length ? ids : ['\u0000no-match'] };
}

export const memoryHandlers: HandlersFor<typeof memoryContract> = {
  'memory.list': (input, session) => {
    const engine = session.readingAt(input.at);
    const filter = textFilter(engine, input);
    // Retention and idle time are computed in SQL at the engine's clock (the Overview's buckets use the same expressions).
    const { total, rows } = engine.store.queries.listMemories({ ...filter, now: engine.now(), half_life_hours: DEFAULT_FORGET_POLICY.decay_half_life_hours });
    const out: MemorySummary[] = rows.map((r) => ({
      id: r.id,
      type: r.type as Memory['type'],
      title: r.title,
      head: memoryHead({ title: r.title, content: r.content }),
      owner: r.owner,
      status: r.status,
      archived: r.archived !== 0,
      importance: r.importance,
      salience: r.salience,
      strength: r.strength,
      access_count: r.access_count,
      created_at: r.created_at,
      last_accessed_at: r.last_accessed,
      tags: r.tags ? (JSON.parse(r.tags) as string[]) : [],
    }));
    return { total, rows: out };
  },
  'memory.get': (input, session) => memoryDetail(session.readingAt(input.at), input.id),
  'memory.add': async (input, session) => {
    const engine = session.engine();
    const { trigger, edges, id, created_at, ...fields } = input;
    const now = engine.now();
    return addMemory(engine, {
      ...patchFromInput(fields, now),
      ...(id !== undefined ? { id } : {}),
      ...(created_at !== undefined ? { created_at } : {}),
      ...(trigger !== undefined ? { trigger } : {}),
      ...(edges ? { edges: edges.map((e) => ({ target_id: e.target_id, type: e.type, weight: e.weight ?? 1, created_at: now })) } : {}),
    } as Parameters<typeof addMemory>[1]);
  },
  'memory.update': async (input, session) => {
    const engine = session.engine();
    const patch = patchFromInput(input.patch, engine.now());
    if (Object.keys(patch).length === 0) throw badInput('patch is empty; give at least one field to change', { field: 'patch' });
    const before = engine.store.journal.history(1)[0]?.id ?? 0;
    const { memory, changed, redacted } = await updateMemory(engine, input.id, patch);
    const after = engine.store.journal.history(1)[0]?.id ?? 0;
    return { memory, changed, change_id: after > before ? after : null, ...(redacted ? { redacted } : {}) };
  },
  'memory.archive': (input, session) => {
    const r = archiveMemories(session.engine(), input.ids, true);
    return { changed: r.changed, change_id: r.changeId };
  },
  'memory.restore': (input, session) => {
    const r = archiveMemories(session.engine(), input.ids, false);
    return { changed: r.changed, change_id: r.changeId };
  },
  'memory.ids': (input, session) => {
    const engine = session.readingAt(input.at);
    // The same filter as memory.list (text through its index), so the ids are exactly the rows listed.
    const filter = textFilter(engine, input);
    return engine.store.queries.listIds({ ...filter, now: engine.now(), half_life_hours: DEFAULT_FORGET_POLICY.decay_half_life_hours }, MAX_SELECT_IDS);
  },
  'memory.tag': async (input, session) => {
    const r = await tagMemories(session.engine(), input.ids, input.add, input.remove);
    return { changed: r.changed, change_id: r.changeId };
  },
  'memory.facets': (input, session) => session.readingAt(input.at).store.queries.memoryFacets(input.archived, input.tag_limit),
  'memory.merge': (input, session) => {
    const engine = session.engine();
    const patch = patchFromInput(input.patch ?? {}, engine.now());
    return mergeMemories(engine, input.ids, input.survivor, patch, undefined, { allowCrossOwner: input.allow_cross_owner });
  },
  'memory.mergeOrder': (input, session) => mergeOrder(session.engine(), input.ids),
  'memory.forget': (input, session) => forgetMemories(session.engine(), input.ids),
  'memory.delete': (input, session) => deleteMemories(session.engine(), input.ids),
  // The service's methods act for the operator; an agent erases through AgentMemory, held to its own memories.
  'memory.erasePlan': async (input, session) => (await planEraseOf(session.reading(), eraseSelectorOf(input), { by: 'operator' })).dry,
  'memory.erase': async (input, session) => (await runEraseJob(session.engine(), eraseSelectorOf(input), { by: 'operator' }, false, session.runPacing)) as EraseReceipt,
};
