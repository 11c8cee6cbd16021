/**
 * Every resolution the queue offers, behind one call (`review.resolve`, `mnemo conflicts resolve`,
 * the workbench, an agent's MCP tool): pair resolutions (resolve.ts) and a curator's word on a
 * belief (beliefs/curator.ts). Beliefs have no owner, so an agent (a caller with an owner scope)
 * may not settle them.
 */
import { MnemoError } from '../../errors.js';
import type { Engine } from '../../engine/engine.js';
import { beliefsOf } from '../../beliefs/index.js';
import { assertBelief, rejectObservation } from '../../beliefs/curator.js';
import { resolvePair, type PairResolution, type Resolver } from './resolve.js';

export type BeliefResolution = { do: 'assert'; entity: string; attribute: string; value: string } | { do: 'reject'; delta_id: number };
export type Resolution = PairResolution | BeliefResolution;

export interface ResolutionResult {
  do: Resolution['do'];
  /** The journalled change (undo it with journal.undo / `mnemo undo`); null when nothing changed. */
  change_id: number | null;
  /** Memories the change touched (pairs). */
  ids: string[];
  /** Beliefs: the observation asserted or rejected, and its dimension. */
  delta_id?: number;
  entity?: string;
  attribute?: string;
}

export async function resolveConflict(engine: Engine, r: Resolution, who: Resolver = {}): Promise<ResolutionResult> {
  if (r.do === 'assert' || r.do === 'reject') {
    if (who.scope !== undefined && who.scope !== null) throw new MnemoError('permission', 'beliefs have no owner: only a curator (no owner scope) settles them', { field: 'do' });
    const model = beliefsOf(engine);
    const res = r.do === 'assert' ? assertBelief(model, r.entity, r.attribute, r.value, engine.now()) : rejectObservation(model, r.delta_id, engine.now());
    return { do: r.do, change_id: res.change_id, ids: [], delta_id: res.delta_id, entity: res.entity, attribute: res.attribute };
  }
  return resolvePair(engine, r, who);
}
