/**
 * Settling a conflict, each as one journalled change (so each can be undone, from any door):
 *
 * - `supersede`: B is current, A stays with `superseded_by` and a validity end; recall leaves A out
 *   by default, and history, time travel and the graph still show it.
 * - `forget`: A is wrong: deleted, with a tombstone (writing it again is noticed).
 * - `both_hold`: they hold in different contexts; the pair leaves the queue for good.
 * - `merge`: fold one into the other (the curation merge: the source is archived, a `refines` edge kept).
 * - belief `assert` (a curator's observation with full reliability) and `reject` (an observation
 *   stops counting): belief-resolutions.ts.
 *
 * Owners: an agent may settle only a pair it can see (its scope), and change only memories it may
 * write (nooa's write rule); a curator (no actor) may settle any.
 */
import { badInput, MnemoError } from '../../errors.js';
import { distinctPair as distinct, visibleMemory as visible, type Resolver } from '../../engine/contradictions.js';
import { forgetMemories, mergeMemories } from '../../engine/curation.js';
import type { Engine } from '../../engine/engine.js';
import { assertWritable } from '../../engine/memory-ops.js';
import { markSettled, markSuperseded, pairKey, resolutionsOf, SUPERSEDE_KIND } from '../../engine/resolutions.js';

export type { Resolver };

export type PairResolution =
  | { do: 'supersede'; current: string; superseded: string }
  | { do: 'forget'; wrong: string }
  | { do: 'both_hold'; ids: [string, string] }
  | { do: 'merge'; ids: [string, string]; survivor: string };

export interface ResolveResult {
  do: PairResolution['do'];
  change_id: number | null;
  /** The memories the change touched. */
  ids: string[];
}

export async function resolvePair(engine: Engine, r: PairResolution, who: Resolver = {}): Promise<ResolveResult> {
  const store = engine.store;
  switch (r.do) {
    case 'supersede': {
      const a = visible(engine, r.superseded, who, 'superseded');
      const b = visible(engine, r.current, who, 'current');
      distinct(a, b, 'superseded');
      assertWritable(a, who.actor);
      if (a.archived) throw new MnemoError('conflict', `memory ${a.id.slice(0, 8)} is archived; restore it first, or leave it archived`, { field: 'superseded' });
      if (b.archived) throw new MnemoError('conflict', `memory ${b.id.slice(0, 8)} is archived, so it cannot be the current one; restore it first`, { field: 'current' });
      const now = engine.now();
      const { changeId } = store.change(
        `supersede ${a.id.slice(0, 8)} by ${b.id.slice(0, 8)}`,
        SUPERSEDE_KIND,
        () => markSuperseded(store, resolutionsOf(engine), a, b, now),
        { superseded: a.id, by: b.id },
      );
      return { do: r.do, change_id: changeId, ids: [a.id, b.id] };
    }
    case 'forget': {
      const a = visible(engine, r.wrong, who, 'wrong');
      const res = forgetMemories(engine, [a.id], who.actor);
      return { do: r.do, change_id: res.change_id, ids: [a.id] };
    }
    case 'both_hold': {
      const a = visible(engine, r.ids[0], who, 'ids');
      const b = visible(engine, r.ids[1], who, 'ids');
      distinct(a, b, 'ids');
      const now = engine.now();
      const { changeId } = store.change(`both hold: ${a.id.slice(0, 8)} / ${b.id.slice(0, 8)}`, 'conflicts.settle', () =>
        markSettled(store, resolutionsOf(engine), a.id, b.id, who.actor?.owner ?? '', now),
        { pair: pairKey(a.id, b.id) },
      );
      return { do: r.do, change_id: changeId, ids: [a.id, b.id] };
    }
    case 'merge': {
      const a = visible(engine, r.ids[0], who, 'ids');
      const b = visible(engine, r.ids[1], who, 'ids');
      distinct(a, b, 'ids');
      const survivor = visible(engine, r.survivor, who, 'survivor');
      if (survivor.id !== a.id && survivor.id !== b.id) throw badInput('the survivor must be one of the two memories', { field: 'survivor' });
      const res = await mergeMemories(engine, [a.id, b.id], survivor.id, {}, who.actor);
      return { do: r.do, change_id: res.change_id, ids: [a.id, b.id] };
    }
  }
}
