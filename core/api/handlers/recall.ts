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

/** The engine's indexes for this request, built in steps (the build's progress is answered meanwhile). */
async function prepared<E extends EngineReader>(engine: E, input: { profile?: ProfileName | undefined }): Promise<E> {
  indexBuildsOf(engine);
  await prepareRecallIndexes(engine, profileOf(engine, input.profile));
  return engine;
}

export const recallHandlers: HandlersFor<typeof recallContract> = {
  'recall.indexBuild': ({ at }, session) => indexBuildsOf(session.readingAt(at)).current(),
  'recall.explain': async ({ at, ...input }, session) => explain(await prepared(session.readingAt(at), input), input),
  'recall.run': async (input, session) => recallAndLog(await prepared(session.engine(), input), input, 'recalled', session.reader),
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
