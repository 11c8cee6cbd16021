/**
 * A sweep of one knob: the profile re-ranked at each value, each point the mean metrics over the
 * query set and the mean overlap with the profile's own ranking. One call may carry a few values;
 * the workbench asks one value at a time so that it can show progress and stop between points.
 */
import type { EngineReader } from '../../engine/engine.js';
import type { RecallProfile } from '../profile.js';
import { labelsFor } from './labels.js';
import { knobValue, sweepKnob, withKnob } from './knobs.js';
import { meanOf, rankingMetrics, rankOverlap } from './metrics.js';
import { labRanking } from './rankings.js';
import type { LabQuery, LabSweepResult } from './types.js';

export interface SweepInput {
  queries: readonly LabQuery[];
  profile: RecallProfile;
  knob: string;
  values: readonly number[];
  k: number;
  /** A label source's name; absent: the store's default (labels.ts). */
  labels?: string | undefined;
}

export function sweepKnobValues(engine: EngineReader, input: SweepInput): LabSweepResult {
  const knob = sweepKnob(input.knob);
  const { source, labels } = labelsFor(engine, input.labels, input.queries.map((q) => q.query), input.k);
  const own = input.queries.map((q) => labRanking(engine, q, input.profile, input.k).map((r) => r.id));
  const points = input.values.map((value) => {
    const profile = withKnob(input.profile, knob.path, value);
    const per = input.queries.map((q, i) => {
      const ids = labRanking(engine, q, profile, input.k).map((r) => r.id);
      return { metrics: rankingMetrics(ids, new Set(labels.get(q.query) ?? []), input.k), overlap: rankOverlap(own[i]!, ids, input.k) };
    });
    return {
      value: knob.integer ? Math.round(value) : value,
      recall: meanOf(per.map((p) => p.metrics.recall)),
      mrr: meanOf(per.map((p) => p.metrics.mrr)),
      ndcg: meanOf(per.map((p) => p.metrics.ndcg)),
      overlap: meanOf(per.map((p) => p.overlap)) ?? 0,
      labelled: per.filter((p) => p.metrics.recall !== null).length,
    };
  });
  return { profile: input.profile.name, knob: knob.path, current: knobValue(input.profile, knob.path), k: input.k, label_source: source.name, points };
}
