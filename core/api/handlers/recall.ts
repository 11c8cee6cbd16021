import type { EngineReader } from '../../engine/engine.js';
import { prepareRecallIndexes } from '../../recall/pipeline.js';
import { explain } from '../../recall/explain.js';
import { profileConfig, profileDifferences } from '../../recall/profile.js';
import { profileOf } from '../../recall/saved-profiles.js';
import { recallAndLog } from '../../recall/record.js';
import { resolveRequest } from '../../recall/request.js';
import { whyNot } from '../../recall/why-not.js';
import type { recallContract } from '../contract/recall.js';
import type { HandlersFor } from './types.js';
import { indexBuildsOf } from './shared/index-builds.js';
import type { ProfileName } from '../../store/port/port.js';
import { indexLabel } from '../../store/derived/index-snapshots.js';
import type { RecallStats } from '../../recall/types.js';

/** The engine's indexes for this request, built in steps (the build's progress is answered meanwhile). */
async function prepared<E extends EngineReader>(engine: E, input: { profile?: ProfileName | undefined }): Promise<E> {
  indexBuildsOf(engine);
  await prepareRecallIndexes(engine, profileOf(engine, input.profile));
  return engine;
}

/**
 * Runs `rank` on the engine once its indexes are ready, and says in the result's stats how long the
 * call waited for them and which were built meanwhile (a UI's timing is the time the person
 * waited, and names the build when there was one).
 */
async function timedRanking<E extends EngineReader, R extends { stats: RecallStats }>(engine: E, input: { profile?: ProfileName | undefined }, rank: (engine: E) => R): Promise<R> {
  const built: NonNullable<RecallStats['built']> = [];
  const unwatch = engine.indexSnapshots.watch((e) => {
    if (e.phase === 'done') built.push({ index: e.index, label: indexLabel(e.index), ms: Math.round(e.ms ?? 0) });
  });
  // A duration the person waited, not an instant the logic records: the monotonic timer.
  const started = performance.now();
  try {
    await prepared(engine, input);
  } finally {
    unwatch();
  }
  const prepareMs = Math.round((performance.now() - started) * 10) / 10;
  const result = rank(engine);
  return { ...result, stats: { ...result.stats, prepare_ms: prepareMs, built } };
}

export const recallHandlers: HandlersFor<typeof recallContract> = {
  'recall.indexBuild': ({ at }, session) => indexBuildsOf(session.readingAt(at)).current(),
  'recall.explain': ({ at, ...input }, session) => timedRanking(session.readingAt(at), input, (engine) => explain(engine, input)),
  'recall.run': (input, session) => timedRanking(session.engine(), input, (engine) => recallAndLog(engine, input, 'recalled', session.reader)),
  'recall.search': async (input, session) => recallAndLog(await prepared(session.engine(), input), input, 'searched', session.reader),
  'recall.inject': async (input, session) => recallAndLog(await prepared(session.engine(), input), input, 'injected', session.reader),
  'recall.whyNot': async (input, session) => {
    const engine = await prepared(session.engine(), input);
    return whyNot(engine, resolveRequest(engine, input, { k: 10 }), input.target);
  },
  'recall.profile': (input, session) => {
    const engine = session.reading();
    const profile = profileOf(engine, input.profile);
    return { name: profile.name, store_profile: engine.profile(), config: profileConfig(profile), differences: profileDifferences(profile) };
  },
};
