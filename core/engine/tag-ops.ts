/**
 * Bulk tagging from the workbench's multi-select: add and remove tags on many memories as ONE
 * journalled change (so one undo reverts the whole selection). Tags are part of the embedded text,
 * so each touched memory is re-embedded in the same change.
 */
import { badInput } from '../errors.js';
import { embeddingText } from '../model/memory.js';
import type { Engine } from './engine.js';
import { assertWritable, type WriteActor } from './memory-ops.js';
import { requireMemory } from '../store/queries/memory-lookups.js';

export interface TagResult {
  changed: string[];
  changeId: number | null;
}

export async function tagMemories(engine: Engine, ids: readonly string[], add: readonly string[], remove: readonly string[], actor?: WriteActor): Promise<TagResult> {
  const clean = (xs: readonly string[]) => [...new Set(xs.map((t) => t.trim()))];
  const plus = clean(add);
  const minus = new Set(clean(remove));
  if (plus.some((t) => t === '') || [...minus].some((t) => t === '')) throw badInput('tags cannot be empty strings', { field: 'tags' });
  if (plus.length === 0 && minus.size === 0) throw badInput('give at least one tag to add or remove', { field: 'add' });
  const store = engine.store;
  const memories = ids.map((id) => requireMemory(store, id));
  for (const m of memories) assertWritable(m, actor);
  const updates: { m: (typeof memories)[number]; vec: Float32Array }[] = [];
  for (const m of memories) {
    const next = m.tags.filter((t) => !minus.has(t));
    for (const t of plus) if (!next.includes(t)) next.push(t);
    if (JSON.stringify(next) === JSON.stringify(m.tags)) continue;
    m.tags = next;
    updates.push({ m, vec: await engine.embed(embeddingText(m)) });
  }
  if (updates.length === 0) return { changed: [], changeId: null };
  const what = [...plus.map((t) => `+${t}`), ...[...minus].map((t) => `-${t}`)].join(' ');
  const { changeId } = store.change(`tag ${updates.length} ${updates.length === 1 ? 'memory' : 'memories'} ${what}`, 'memory.tag', () => {
    for (const { m, vec } of updates) {
      store.save(m);
      store.setEmbedding(m.id, vec);
    }
  });
  return { changed: updates.map((u) => u.m.id), changeId };
}
