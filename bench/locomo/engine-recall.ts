/**
 * The engine's recall as the harness calls it: the pipeline's dry run (no access is logged, so
 * one question never changes the store the next one is asked against), with the profile's own
 * hops, over every owner, as of the engine's clock (the end of the conversation).
 */
import { rank } from '../../core/recall/pipeline.js';
import type { RecallProfile } from '../../core/recall/profile.js';
import type { EngineRecall } from './rankers.js';

export function profileRecall(profile: RecallProfile): EngineRecall {
  return (engine, query, k) =>
    rank(engine, { query, hops: profile.knobs.hops, owner: null, profile, now: engine.now() })
      .rows.slice(0, k)
      .map((r) => r.id);
}
