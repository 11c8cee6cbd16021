import { compareProfiles } from '../../recall/lab/compare.js';
import { LABEL_SOURCE_NAMES, SWEEP_KNOBS } from '../../recall/lab/names.js';
import { sweepKnobValues } from '../../recall/lab/sweep.js';
import { resolveProfile } from '../../recall/saved-profiles.js';
import { cancelLabFit, labFitProgress, runLabFit } from '../../tune/lab-fit.js';
import type { labContract } from '../contract/lab.js';
import type { HandlersFor } from './types.js';
import { cancelledIfCallerGoes } from '../call-signal.js';

export const labHandlers: HandlersFor<typeof labContract> = {
  'lab.knobs': () => ({ knobs: SWEEP_KNOBS.map((k) => ({ ...k })), label_sources: [...LABEL_SOURCE_NAMES] }),
  'lab.queries': (input, session) =>
    session.reading().store.queries.loggedRecalls(input.limit).map((r) => ({
      query: r.query,
      owner: r.scope,
      reader_owner: r.reader_owner,
      accesses: r.accesses,
      first_ts: r.first_ts,
      last_ts: r.last_ts,
    })),
  'lab.compare': (input, session) => {
    const engine = session.reading();
    return compareProfiles(engine, { ...input, a: resolveProfile(engine.store, input.a), b: resolveProfile(engine.store, input.b) });
  },
  'lab.sweep': (input, session) => {
    const engine = session.reading();
    return sweepKnobValues(engine, { ...input, profile: resolveProfile(engine.store, input.profile) });
  },
  'lab.fit': (input, session) => {
    const engine = session.reading();
    return cancelledIfCallerGoes(() => cancelLabFit(engine), () => runLabFit(engine, {
      queries: input.queries,
      labels: input.labels,
      from: resolveProfile(engine.store, input.from),
      name: input.name,
      k: input.k,
      metric: input.metric,
      seed: input.seed,
      maxEvaluations: input.max_evaluations,
      heldOutShare: input.held_out_share,
      knobs: input.knobs,
    }));
  },
  'lab.fitProgress': (_input, session) => labFitProgress(session.reading()),
  'lab.fitCancel': (_input, session) => cancelLabFit(session.reading()),
};
