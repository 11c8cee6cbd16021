/**
 * A curator's word on a belief, from the conflict queue: assert a value (an observation with full
 * reliability, source `curator`) or reject an observation (it stops counting). Each is one
 * journalled change; rejected.ts says how undo takes either back.
 */
import { MnemoError } from '../errors.js';
import type { BeliefModel } from './model.js';
import { markAssertedInChange, markRejected, requireDelta } from './rejected.js';

export interface CuratorResult {
  change_id: number | null;
  delta_id: number;
  entity: string;
  attribute: string;
}

export function rejectObservation(model: BeliefModel, deltaId: number, at: number): CuratorResult {
  const d = requireDelta(model.tables, deltaId);
  const { changeId } = model.store.change(`beliefs: reject observation #${d.id} (${d.entity} ${d.attribute} = ${d.value})`, 'beliefs.reject', () => {
    markRejected(model.store, d, at);
    model.rebuild([d.entity]);
  });
  return { change_id: changeId, delta_id: d.id, entity: d.entity, attribute: d.attribute };
}

export function assertBelief(model: BeliefModel, entity: string, attribute: string, value: string, at: number): CuratorResult {
  if (value === '<other>') throw new MnemoError('bad_input', 'value <other> is reserved for "not yet observed"', { field: 'value' });
  const { result, changeId } = model.store.change(`beliefs: assert ${entity} ${attribute} = ${value}`, 'beliefs.assert', () => {
    const delta = model.observe({ entity, attribute, value, t: at, reliability: 1, evidence: `asserted by a curator: ${entity}'s ${attribute} is ${value}`, source: 'curator', memory_id: null, id: null, line: 1 }, at);
    markAssertedInChange(model.store, delta, at);
    return delta;
  });
  return { change_id: changeId, delta_id: result.id, entity: result.entity, attribute };
}
