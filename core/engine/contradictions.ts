/**
 * Flagging a contradiction: `src contradicts dst` (nooa's edge) with a note the conflict queue shows
 * beside the pair, as one journalled change. An agent flags over MCP (`associate` with type
 * contradicts and a note); the source must be writable by it and the target visible to it.
 */
import { badInput, MnemoError } from '../errors.js';
import { addEdge, type Memory } from '../model/memory.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import type { Engine } from './engine.js';
import { assertWritable, type WriteActor } from './memory-ops.js';
import { MAX_NOTE_CHARS, recordNote, resolutionsOf } from './resolutions.js';

export interface Resolver {
  /** Who writes: nooa's write rule applies when set (an agent). */
  actor?: WriteActor;
  /** What the caller may see: a memory outside it is "not found" to them. */
  scope?: OwnerScope;
}

/** A memory the caller may see, by id or prefix; outside the scope it does not exist for them. */
export function visibleMemory(engine: Engine, idOrPrefix: string, who: Resolver, field: string): Memory {
  const id = engine.store.resolveId(idOrPrefix);
  const m = id ? engine.store.get(id) : null;
  if (!m || (who.scope !== undefined && !ownerMatches(m.owner, who.scope))) {
    throw new MnemoError('not_found', `no memory ${JSON.stringify(idOrPrefix)}${who.scope ? ` in scope ${JSON.stringify(who.scope)}` : ''}`, { field });
  }
  return m;
}

export function distinctPair(a: Memory, b: Memory, field: string): void {
  if (a.id === b.id) throw badInput(`a conflict needs two different memories (both are ${a.id.slice(0, 8)})`, { field });
}

export function flagContradiction(engine: Engine, src: string, dst: string, note: string, who: Resolver = {}): { src: string; dst: string; changed: boolean; change_id: number | null } {
  if (note.length > MAX_NOTE_CHARS) throw badInput(`the note is ${note.length} characters; the most is ${MAX_NOTE_CHARS}`, { field: 'note' });
  const store = engine.store;
  const a = visibleMemory(engine, src, who, 'a_id');
  const b = visibleMemory(engine, dst, who, 'b_id');
  distinctPair(a, b, 'b_id');
  assertWritable(a, who.actor);
  const now = engine.now();
  const { result, changeId } = store.change(`flag ${a.id.slice(0, 8)} -contradicts-> ${b.id.slice(0, 8)}`, 'edge.add', () => {
    const changed = addEdge(a, b.id, 'contradicts', 1.0, now);
    if (changed) store.save(a);
    if (note.trim() !== '') recordNote(store, resolutionsOf(engine), { note: note.trim(), owner: who.actor?.owner ?? '', at: now, from: a.id, to: b.id });
    return changed;
  });
  return { src: a.id, dst: b.id, changed: result, change_id: changeId };
}
