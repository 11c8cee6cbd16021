/**
 * LoCoMo as labelled queries for `mnemo tune locomo`: each conversation ingested once (as the
 * harness does it, rankers.ts), every scored question (categories 1–4, non-empty evidence) asked
 * as of the end of its conversation, its evidence turns the relevant memories. Only turn memories
 * are ranked items (session memories are containers). The tuning five train; the other five are
 * held out, exactly the harness's split.
 */
import type { Clock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import type { LabelledQuery, LabelledSet, LabelledStore } from '../../core/tune/labels.js';
import type { Conversation } from './dataset.js';
import { ingestConversation } from './ingest.js';
import { SCORED_CATEGORIES, TUNING_SAMPLES } from './runner.js';

export interface LocomoLabels {
  train: LabelledSet;
  heldOut: LabelledSet;
  /** Closes every conversation's engine. */
  close(): void;
}

export function locomoLabels(conversations: readonly Conversation[]): LocomoLabels {
  const engines: Engine[] = [];
  const train: LabelledStore[] = [];
  const heldOut: LabelledStore[] = [];
  try {
    for (const conv of conversations) {
      let t = 0;
      const clock: Clock = { now: () => t };
      const engine = Engine.open(':memory:', { create: true, clock, profile: 'mnemo', initialProfile: 'mnemo' });
      engines.push(engine);
      const ingested = ingestConversation(engine, conv);
      t = ingested.endTime;
      const memoryOf = new Map([...ingested.diaOf].map(([id, dia]) => [dia, id]));
      const queries: LabelledQuery[] = conv.questions
        .filter((q) => SCORED_CATEGORIES.has(q.category) && q.evidence.length > 0)
        .map((q) => ({ id: `${conv.sampleId}#${q.qaIndex}`, query: q.question, owner: null, asOf: ingested.endTime, relevant: q.evidence.map((dia) => memoryOf.get(dia)!) }));
      (TUNING_SAMPLES.has(conv.sampleId) ? train : heldOut).push({ engine, queries, rankable: new Set(ingested.diaOf.keys()) });
    }
  } catch (err) {
    for (const e of engines) e.close();
    throw err;
  }
  return { train, heldOut, close: () => engines.forEach((e) => e.close()) };
}
