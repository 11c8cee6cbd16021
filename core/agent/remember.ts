/**
 * Writing a memory as an agent: the reference's dedup-on-write. Before adding, the new text is
 * compared with the live memories of the writer's role (never another role's); the first of the
 * `dedup_top_k` nearest with cosine ≥ `dedup_threshold` and the same type is reinforced instead:
 * a `reinforced` access (strength +1), reinforcement_count +1, importance and salience raised to
 * the larger of old and new. The new wording, tags and references are dropped, and the existing id
 * is returned. Content the writer's role forgot before (a tombstone) is refused unless forced.
 */
import { redactFields } from '../engine/redaction.js';
import type { RedactionCounts } from '../model/redaction.js';
import type { Engine } from '../engine/engine.js';
import { addMemory } from '../engine/memory-ops.js';
import { MnemoError } from '../errors.js';
import type { MemoryType } from '../model/enums.js';
import { accessRecord, createMemory, embeddingText, type Memory, type MemoryRef } from '../model/memory.js';
import { ownerMatches, roleOf } from '../model/owner.js';
import type { StoredTrigger } from '../prospective/triggers.js';
import type { AgentIdentity } from '../model/identity.js';
import { nextTurn } from '../recall/pipeline.js';
import { noMemories, requireMemory } from '../store/queries/memory-lookups.js';
import { tombstoneFor } from '../store/queries/tombstones.js';

export interface WritePolicy {
  dedup_threshold: number;
  dedup_top_k: number;
  default_importance: number;
}

export const DEFAULT_WRITE_POLICY: WritePolicy = { dedup_threshold: 0.92, dedup_top_k: 5, default_importance: 5.0 };

export interface RememberFields {
  content: string;
  type?: MemoryType;
  title?: string | null;
  importance?: number;
  salience?: number;
  confidence?: number;
  tags?: string[];
  entities?: string[];
  place_or_task?: string | null;
  references?: MemoryRef[];
  trigger?: StoredTrigger | null;
  source_task_ref?: string | null;
}

export interface RememberOptions {
  dedup?: boolean;
  /** Further restricts which existing memory a duplicate may reinforce (e.g. only open todos). */
  reinforceOnly?: (m: Memory) => boolean;
  policy?: WritePolicy;
  /** Write even when this content was forgotten before in the writer's scope (a tombstone). */
  force?: boolean;
}

export interface RememberResult {
  id: string;
  /** What the store's redaction policy replaced in what was sent (engine/redaction.ts), by kind; absent when nothing. */
  redacted?: RedactionCounts;
  /** True when an existing memory was reinforced instead of a new one written. */
  reinforced: boolean;
  /** Cosine to the reinforced memory (null for a new memory). */
  cos: number | null;
  memory: Memory;
}

/** The live memory a write would reinforce, or null; on a store with memories (the caller asks noMemories first). */
export function findDuplicate(
  engine: Engine,
  vec: Float32Array,
  type: MemoryType,
  writerOwner: string,
  policy: WritePolicy,
  reinforceOnly?: (m: Memory) => boolean,
): { memory: Memory; cos: number } | null {
  const role = roleOf(writerOwner);
  const hits = engine.vectors.get().knn(vec, policy.dedup_top_k, { owner: (owner) => ownerMatches(owner, role) });
  for (const hit of hits) {
    if (hit.cos < policy.dedup_threshold) continue;
    const existing = engine.store.get(hit.id);
    if (existing && !existing.archived && existing.type === type && (!reinforceOnly || reinforceOnly(existing))) return { memory: existing, cos: hit.cos };
  }
  return null;
}

export async function rememberAs(engine: Engine, who: AgentIdentity, sent: RememberFields, opts: RememberOptions = {}): Promise<RememberResult> {
  const policy = opts.policy ?? DEFAULT_WRITE_POLICY;
  // Before the duplicate check: a secret is neither stored nor compared.
  const { fields, redacted } = redactFields(engine.store, sent);
  const told = redacted.total ? { redacted: redacted.counts } : {};
  const now = engine.now();
  const draft = createMemory(
    {
      ...stripUndefined(fields),
      content: fields.content,
      importance: fields.importance ?? policy.default_importance,
      owner: who.owner,
    },
    now,
  );
  if (opts.dedup !== false) {
    const vec = await engine.embed(embeddingText(draft));
    // An empty store has nothing to reinforce and no index to build (asked once: on a network store
    // each question is a round trip). The index is built in steps (or loaded from the snapshot
    // another process on the store is building), not at once inside findDuplicate: an agent's first
    // write on a big store answers other calls meanwhile.
    const empty = noMemories(engine.store);
    if (!empty) await engine.vectors.getReady(nextTurn);
    const dup = empty ? null : findDuplicate(engine, vec, draft.type, who.owner, policy, opts.reinforceOnly);
    if (dup) {
      const store = engine.store;
      const existing = dup.memory;
      store.transaction(() => {
        store.change(`reinforce ${existing.id.slice(0, 8)} (duplicate write)`, 'memory.reinforce', () => {
          existing.reinforcement_count += 1;
          existing.importance = Math.max(existing.importance, draft.importance);
          existing.salience = Math.max(existing.salience, draft.salience);
          store.save(existing);
        });
        store.logAccesses([{ id: existing.id, record: accessRecord(now, 'reinforced', { reader_owner: who.owner, session_ref: who.session_ref }) }]);
      });
      return { id: existing.id, reinforced: true, cos: dup.cos, memory: requireMemory(store, existing.id), ...told };
    }
  }
  if (!opts.force) refuseForgotten(engine, who, draft.content);
  // The tombstone check above is scoped to the writer's role; another role's forget is none of its business.
  const m = await addMemory(engine, draft, { label: `remember ${draft.type} ${draft.id.slice(0, 8)}`, allowForgotten: true, redacted });
  return { id: m.id, reinforced: false, cos: null, memory: m, ...told };
}

/**
 * Forgotten content is not silently re-created: when the writer's role (or the shared writer)
 * forgot this exact content, the write is refused with when and what, and `force` overrides.
 */
function refuseForgotten(engine: Engine, who: AgentIdentity, content: string): void {
  const tomb = tombstoneFor(engine.store, content);
  if (!tomb || !ownerMatches(tomb.owner, roleOf(who.owner))) return;
  throw new MnemoError(
    'conflict',
    `this content was forgotten on ${new Date(tomb.ts * 1000).toISOString()} (memory ${tomb.memory_id.slice(0, 8)}: ${JSON.stringify(tomb.head)}); write it again only on purpose (force: true), or word what changed`,
    { field: 'content', tombstone: tomb.hash, memory_id: tomb.memory_id },
  );
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
