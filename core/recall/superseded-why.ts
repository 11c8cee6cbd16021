/**
 * What explain --target and why-not say about a superseded memory: which memory superseded it,
 * when, by which change, and what the ranking did with it. One fact, one sentence of its own.
 */
import type { EngineReader } from '../engine/engine.js';
import { resolutionsOf, supersedingChange } from '../engine/resolutions.js';
import { memoryHead } from '../model/memory.js';
import type { Ranking } from './pipeline.js';
import type { SupersededInfo } from './types.js';

export function supersededInfo(engine: EngineReader, ranking: Ranking, id: string): SupersededInfo | null {
  const s = resolutionsOf(engine).supersededAt(engine.store, ranking.now).get(id);
  if (!s) return null;
  const by = engine.store.get(s.by);
  const excluded = ranking.excluded.find((e) => e.id === id);
  return {
    by: s.by,
    by_head: by ? memoryHead(by) : '(a memory no longer in the store)',
    at: s.at,
    change_id: supersedingChange(engine.store, id, s.by),
    policy: ranking.supersededPolicy,
    rank_if_included: excluded ? excluded.rank : null,
  };
}

const when = (at: number) => new Date(at * 1000).toISOString().replace('.000Z', 'Z');

/** The sentence, e.g. `superseded by 1a2b3c4d "Billing is owned by Lior" at 2026-…Z (change #12): …`. */
export function supersededSentence(info: SupersededInfo): string {
  const what = `superseded by ${info.by.slice(0, 8)} "${info.by_head}" at ${when(info.at)}${info.change_id === null ? '' : ` (change #${info.change_id})`}`;
  if (info.policy === 'exclude') {
    const place = info.rank_if_included === null ? '' : `; it would rank #${info.rank_if_included + 1}`;
    return `${what}: the profile leaves superseded memories out (--include-superseded ranks them)${place}`;
  }
  return `${what}: ${info.policy === 'demote' ? 'its activation is halved' : 'ranked as any other'}, and marked`;
}
