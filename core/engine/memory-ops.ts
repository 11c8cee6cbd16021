/**
 * Curation operations on memories: add, update, archive, restore, forget, link, unlink.
 * Each one is a single journalled change, so everything can be undone.
 */
import { badInput, MnemoError, notFound } from '../errors.js';
import { isEdgeType, type EdgeType, type MemoryType, type TodoStatus } from '../model/enums.js';
import {
  accessRecord,
  addEdge,
  applyTodoRule,
  createMemory,
  embeddingText,
  refreshDerivedSizes,
  type IntentTrigger,
  type Memory,
  type MemoryRef,
  type NewMemoryInput,
} from '../model/memory.js';
import { ownerMayWrite, validateOwner } from '../model/owner.js';
import type { Engine } from './engine.js';
import { recordRedactions, redactFields, type Redacted } from './redaction.js';
import type { RedactionCounts } from '../model/redaction.js';
import { tombstoneFor } from '../store/queries/tombstones.js';
import { requireMemory } from '../store/queries/memory-lookups.js';

export interface WriteActor {
  /** The writer's identity; when set, cross-role writes are refused (nooa's `_assert_writable`). */
  owner?: string;
}

/** nooa's write rule (ownerMayWrite): unowned memories are writable by everyone, owned ones by the same role. */
export function assertWritable(m: Pick<Memory, 'id' | 'owner'>, actor: WriteActor | undefined): void {
  if (actor?.owner === undefined) return;
  if (ownerMayWrite(m.owner, actor.owner)) return;
  throw new MnemoError(
    'permission',
    `memory ${m.id.slice(0, 8)} belongs to ${JSON.stringify(m.owner)}; cross-owner writes are not allowed (you are ${JSON.stringify(actor.owner)})`,
    { id: m.id, owner: m.owner },
  );
}

/** A memory just written, with what the store's redaction policy replaced in it (absent when nothing). */
export type WrittenMemory = Memory & { redacted?: RedactionCounts };

export async function addMemory(
  engine: Engine,
  given: NewMemoryInput,
  opts: { label?: string; allowForgotten?: boolean; /** The caller redacted the input already (remember): these are its counts. */ redacted?: Redacted } = {},
): Promise<WrittenMemory> {
  const now = engine.now();
  // Secrets never reach the store, its journal or its feed: replaced before anything is written.
  const { fields: input, redacted } = opts.redacted ? { fields: given, redacted: opts.redacted } : redactFields(engine.store, given);
  // Forgotten content is not silently re-created: the caller learns of the tombstone and decides.
  const tomb = opts.allowForgotten ? null : tombstoneFor(engine.store, input.content);
  if (tomb) {
    throw new MnemoError(
      'conflict',
      `this content was forgotten on ${new Date(tomb.ts * 1000).toISOString()} (memory ${tomb.memory_id.slice(0, 8)}, tombstone ${tomb.hash.slice(0, 12)}); add it again only on purpose (allowForgotten / --force), or undo that forget`,
      { tombstone: tomb },
    );
  }
  if (input.owner !== undefined) validateOwner(input.owner);
  for (const e of input.edges ?? []) {
    if (!isEdgeType(e.type)) throw badInput(`unknown edge type ${JSON.stringify(e.type)}`, { field: 'edges.type' });
  }
  const m = createMemory(input, now);
  if (engine.store.exists(m.id)) throw badInput(`a memory with id ${m.id} already exists; use update instead`, { field: 'id' });
  for (const e of m.edges) {
    if (!engine.store.exists(e.target_id)) throw notFound(`edge target ${e.target_id} does not exist`, { field: 'edges.target_id' });
  }
  const vec = await engine.embed(embeddingText(m));
  engine.store.change(opts.label ?? `add ${m.type} ${m.id.slice(0, 8)}`, 'memory.add', () => {
    engine.store.add(m, vec);
    // The seeded `created` entry is an access too: the uncapped event table holds it from the start.
    engine.store.recordAccessEvents(m.id, m.access_log, m.strength);
    recordRedactions(engine.store, redacted.counts);
  });
  return redacted.total ? Object.assign(m, { redacted: redacted.counts }) : m;
}

export interface MemoryPatch {
  title?: string | null;
  content?: string;
  type?: MemoryType;
  owner?: string;
  importance?: number;
  salience?: number;
  confidence?: number;
  mood?: string | null;
  tags?: string[];
  entities?: string[];
  place_or_task?: string | null;
  status?: TodoStatus | null;
  references?: MemoryRef[];
  trigger?: IntentTrigger | null;
  valid_from?: number | null;
  valid_to?: number | null;
  source_task_ref?: string | null;
}

export interface UpdateOptions {
  actor?: WriteActor;
  /**
   * An agent's update_memory logs a `reinforced` access without a strength bump and counts a
   * reinforcement, as nooa does. A curator's edit in the workbench is not an access.
   */
  asAgentAccess?: boolean;
  /** Who is reading, for the agent access (defaults to the actor without a session). */
  reader?: { owner: string; session_ref: string | null };
  label?: string;
}

const EMBEDDED_FIELDS = new Set(['title', 'content', 'tags', 'entities']);

/** Applies a patch; returns the updated memory and the fields that actually changed. */
export async function updateMemory(engine: Engine, idOrPrefix: string, given: MemoryPatch, opts: UpdateOptions = {}): Promise<{ memory: Memory; changed: string[]; redacted?: RedactionCounts }> {
  const store = engine.store;
  const { fields: patch, redacted } = redactFields(store, given);
  const m = requireMemory(store, idOrPrefix);
  assertWritable(m, opts.actor);
  if (patch.owner !== undefined) validateOwner(patch.owner);
  const changed: string[] = [];
  const rec = m as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (JSON.stringify(rec[key]) !== JSON.stringify(value)) {
      rec[key] = Array.isArray(value) ? [...value] : value;
      changed.push(key);
    }
  }
  // Switching to todo opens it; switching away clears the status (nooa's update rule).
  if (changed.includes('type')) {
    if (m.type === 'todo' && patch.status === undefined && m.status === null) m.status = 'open';
    if (m.type !== 'todo' && patch.status === undefined) m.status = null;
  }
  if (patch.status !== undefined && patch.status !== null && m.type !== 'todo') {
    throw badInput(`status applies only to todo memories (this one is ${m.type})`, { field: 'status' });
  }
  applyTodoRule(m);
  if (changed.includes('content')) refreshDerivedSizes(m);
  const reembed = changed.some((f) => EMBEDDED_FIELDS.has(f));
  const vec = reembed ? await engine.embed(embeddingText(m)) : null;
  if (changed.length === 0 && !opts.asAgentAccess) return { memory: m, changed, ...(redacted.total ? { redacted: redacted.counts } : {}) };
  if (opts.asAgentAccess) m.reinforcement_count += 1;
  store.transaction(() => {
    store.change(opts.label ?? `edit ${m.id.slice(0, 8)} (${changed.join(', ') || 'touch'})`, 'memory.update', () => {
      store.save(m);
      if (vec) store.setEmbedding(m.id, vec);
      recordRedactions(store, redacted.counts);
    });
    // The access goes through logAccesses so it lands in the event table too, with who and which session.
    if (opts.asAgentAccess) {
      const reader = opts.reader ?? { owner: opts.actor?.owner ?? '', session_ref: null };
      store.logAccesses([{ id: m.id, record: accessRecord(engine.now(), 'reinforced', { reader_owner: reader.owner, session_ref: reader.session_ref }), reinforce: false }]);
    }
  });
  return { memory: opts.asAgentAccess ? requireMemory(store, m.id) : m, changed, ...(redacted.total ? { redacted: redacted.counts } : {}) };
}

export function archiveMemories(engine: Engine, ids: string[], archived: boolean, actor?: WriteActor): { changed: string[]; changeId: number | null } {
  const store = engine.store;
  const resolved = ids.map((i) => requireMemory(store, i));
  for (const m of resolved) assertWritable(m, actor);
  const verb = archived ? 'archive' : 'restore';
  const label = resolved.length === 1 ? `${verb} ${resolved[0]!.id.slice(0, 8)}` : `${verb} ${resolved.length} memories`;
  const { result, changeId } = store.change(label, `memory.${verb}`, () => {
    // Every row locked at once, in id order: written one by one in the caller's order, two such calls deadlocked on PostgreSQL.
    store.lockAhead?.(resolved.map((m) => m.id));
    return resolved.filter((m) => (archived ? store.setArchived(m.id, true) : store.setArchived(m.id, false))).map((m) => m.id);
  });
  return { changed: result, changeId };
}

export function linkMemories(engine: Engine, src: string, dst: string, type: string, weight = 1.0, actor?: WriteActor): { changed: boolean; changeId: number | null } {
  const r = linkManyMemories(engine, [src], dst, type, weight, actor);
  return { changed: r.changed.length > 0, changeId: r.changeId };
}

/** Links every source to one target as a single journalled change, so one undo takes them all back. */
export function linkManyMemories(engine: Engine, srcs: string[], dst: string, type: string, weight = 1.0, actor?: WriteActor): { changed: string[]; changeId: number | null } {
  const store = engine.store;
  if (!isEdgeType(type)) {
    throw badInput(`unknown edge type ${JSON.stringify(type)}; expected one of derived_from, created_by, supports, contradicts, refines, related, causes, precedes, part_of, triggers`, {
      field: 'type',
    });
  }
  if (!(weight >= 0 && weight <= 1)) throw badInput(`edge weight ${weight} is outside [0, 1]`, { field: 'weight' });
  const b = requireMemory(store, dst);
  const sources = [...new Map(srcs.map((s) => requireMemory(store, s)).map((m) => [m.id, m])).values()];
  for (const a of sources) {
    assertWritable(a, actor);
    if (a.id === b.id) throw badInput(`an edge needs two different memories (${a.id.slice(0, 8)} is the target)`, { field: 'dst' });
  }
  const label =
    sources.length === 1 ? `link ${sources[0]!.id.slice(0, 8)} -${type}-> ${b.id.slice(0, 8)}` : `link ${sources.length} memories -${type}-> ${b.id.slice(0, 8)}`;
  const now = engine.now();
  const { result, changeId } = store.change(label, 'edge.add', () => {
    // Every source locked at once, in id order (see archiveMemories).
    store.lockAhead?.(sources.map((a) => a.id));
    return sources
      .filter((a) => {
        const changed = addEdge(a, b.id, type as EdgeType, weight, now);
        if (changed) store.save(a);
        return changed;
      })
      .map((a) => a.id);
  });
  return { changed: result, changeId };
}

export function unlinkMemories(engine: Engine, src: string, dst: string, type: string, actor?: WriteActor): { changed: boolean; changeId: number | null } {
  const store = engine.store;
  const a = requireMemory(store, src);
  const dstId = store.resolveId(dst) ?? dst;
  assertWritable(a, actor);
  const { result, changeId } = store.change(`unlink ${a.id.slice(0, 8)} -${type}-> ${dstId.slice(0, 8)}`, 'edge.remove', () =>
    store.removeEdge(a.id, dstId, type),
  );
  if (!result) throw notFound(`no ${type} edge from ${a.id} to ${dstId}`, { field: 'dst' });
  return { changed: result, changeId };
}
