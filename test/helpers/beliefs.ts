/** A fresh engine on a temporary store, with a fixed clock, for belief tests. */
import { join } from 'node:path';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { beliefJournalFollowUps, beliefsOf, type BeliefModel, type Observation } from '../../core/beliefs/index.js';
import { tempDir } from '../../support/fixture.js';

export const NOW = 1_725_920_000;
export const DAY = 86_400;

export function freshEngine(name = 'beliefs.sqlite'): { engine: Engine; model: BeliefModel; path: string } {
  const path = join(tempDir('mnemo-beliefs-'), name);
  const engine = Engine.open(path, { create: true, clock: fixedClock(NOW), journalFollowUps: beliefJournalFollowUps });
  return { engine, model: beliefsOf(engine), path };
}

export function obs(entity: string, attribute: string, value: string, t: number, reliability: number | null = 0.9, extra: Partial<Observation> = {}): Observation {
  return { entity, attribute, value, t, reliability, evidence: `${entity}'s ${attribute} is ${value}.`, source: 'test', memory_id: null, id: null, line: 1, ...extra };
}
