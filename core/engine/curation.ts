/**
 * Manual curation: merge N memories into a chosen survivor, forget (delete + value-level
 * tombstone) and delete. Each is one journalled change, so each can be undone.
 */
import { badInput, MnemoError } from '../errors.js';
import { addEdge, foldDuplicateScalars, embeddingText, memoryHead, refreshDerivedSizes, applyTodoRule, type Memory } from '../model/memory.js';
import { contentHash } from '../model/content-hash.js';
import { defaultSurvivor, mergeOwners } from '../model/merge-order.js';
import type { Engine, EngineReader } from './engine.js';
import { assertWritable, type MemoryPatch, type WriteActor } from './memory-ops.js';
import { requireMemory } from '../store/queries/memory-lookups.js';
import { putTombstone } from '../store/queries/tombstones.js';

export interface MergeResult {
  survivor: Memory;
  archived: string[];
  change_id: number | null;
}

const EMBEDDED = new Set(['title', 'content', 'tags', 'entities']);

/**
 * Folds the sources into the survivor with the reflection merge rules (reinforcements and strength
 * add up; importance, salience and confidence take the max; the sources' outgoing edges are copied,
 * the larger weight wins), applies the curator's field edits, records lineage with a `refines` edge
 * survivor → source (sources' own `refines`/`derived_from` edges come along with the copy), and
 * archives the sources.
 */
export interface MergeOptions {
  /** Merging memories of different owners moves one owner's knowledge under another's name: only on request. */
  allowCrossOwner?: boolean;
}

export interface MergeOrder {
  /** The survivor by the shared rule (core/model/merge-order.ts): the older copy. */
  survivor: string;
  owners: string[];
  cross_owner: boolean;
}

/** What a merge of these memories would default to, so the dialog and reflection agree. */
export function mergeOrder(engine: EngineReader, ids: string[]): MergeOrder {
  const mems = [...new Set(ids.map((i) => requireMemory(engine.store, i).id))].map((id) => engine.store.get(id)!);
  const owners = mergeOwners(mems);
  return { survivor: defaultSurvivor(mems)!.id, owners, cross_owner: owners.length > 1 };
}

export async function mergeMemories(engine: Engine, ids: string[], survivorId: string, patch: MemoryPatch = {}, actor?: WriteActor, opts: MergeOptions = {}): Promise<MergeResult> {
  const store = engine.store;
  const survivor = requireMemory(store, survivorId);
  const sources = [...new Set(ids.map((i) => requireMemory(store, i).id))].filter((id) => id !== survivor.id).map((id) => store.get(id)!);
  if (sources.length === 0) throw badInput('give at least one memory to merge into the survivor (other than the survivor itself)', { field: 'ids' });
  for (const m of [survivor, ...sources]) assertWritable(m, actor);
  const owners = mergeOwners([survivor, ...sources]);
  if (owners.length > 1 && !opts.allowCrossOwner) {
    const named = owners.map((o) => (o ? JSON.stringify(o) : '(unowned)')).join(', ');
    throw new MnemoError('conflict', `these memories belong to different owners (${named}); merging would move one owner's memory under another's. Confirm the cross-owner merge to go ahead.`, {
      field: 'allow_cross_owner',
      owners,
    });
  }
  if (survivor.archived) throw new MnemoError('conflict', `survivor ${survivor.id.slice(0, 8)} is archived; restore it first or choose another survivor`);
  const now = engine.now();
  for (const s of sources) {
    foldDuplicateScalars(survivor, s);
    for (const e of s.edges) if (e.target_id !== survivor.id) addEdge(survivor, e.target_id, e.type, e.weight, now);
    addEdge(survivor, s.id, 'refines', 1.0, now);
  }
  const changed: string[] = [];
  const rec = survivor as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || JSON.stringify(rec[k]) === JSON.stringify(v)) continue;
    rec[k] = Array.isArray(v) ? [...v] : v;
    changed.push(k);
  }
  applyTodoRule(survivor);
  if (changed.includes('content')) refreshDerivedSizes(survivor);
  const vec = changed.some((f) => EMBEDDED.has(f)) ? await engine.embed(embeddingText(survivor)) : null;
  const { changeId } = store.change(`merge ${sources.length} into ${survivor.id.slice(0, 8)}`, 'memory.merge', () => {
    store.save(survivor);
    if (vec) store.setEmbedding(survivor.id, vec);
    for (const s of sources) store.setArchived(s.id, true);
  });
  return { survivor: store.get(survivor.id)!, archived: sources.map((s) => s.id), change_id: changeId };
}

export interface ForgetResult {
  forgotten: { id: string; hash: string }[];
  change_id: number | null;
}

/** Deletes the memories (rows and edges in and out) and tombstones their content; one undoable change. */
export function forgetMemories(engine: Engine, ids: string[], actor?: WriteActor): ForgetResult {
  const store = engine.store;
  const mems = [...new Set(ids.map((i) => requireMemory(store, i).id))].map((id) => store.get(id)!);
  for (const m of mems) assertWritable(m, actor);
  const now = engine.now();
  const { changeId } = store.change(mems.length === 1 ? `forget ${mems[0]!.id.slice(0, 8)}` : `forget ${mems.length} memories`, 'memory.forget', () => {
    for (const m of mems) {
      putTombstone(store, { hash: contentHash(m.content), memory_id: m.id, owner: m.owner, ts: now, head: memoryHead(m) });
      store.delete(m.id);
    }
  });
  return { forgotten: mems.map((m) => ({ id: m.id, hash: contentHash(m.content) })), change_id: changeId };
}

/** Hard delete (rows and edges in and out), journalled; no tombstone. */
export function deleteMemories(engine: Engine, ids: string[], actor?: WriteActor): { deleted: string[]; change_id: number | null } {
  const store = engine.store;
  const mems = [...new Set(ids.map((i) => requireMemory(store, i).id))].map((id) => store.get(id)!);
  for (const m of mems) assertWritable(m, actor);
  const { result, changeId } = store.change(mems.length === 1 ? `delete ${mems[0]!.id.slice(0, 8)}` : `delete ${mems.length} memories`, 'memory.delete', () =>
    mems.filter((m) => store.delete(m.id)).map((m) => m.id),
  );
  return { deleted: result, change_id: changeId };
}
