import { explain } from '../../recall/explain.js';
import { profileConfig, profileDifferences } from '../../recall/profile.js';
import { profileOf } from '../../recall/saved-profiles.js';
import { recallAndLog } from '../../recall/record.js';
import { resolveRequest } from '../../recall/request.js';
import { whyNot } from '../../recall/why-not.js';
import type { recallContract } from '../contract/recall.js';
import type { HandlersFor } from './types.js';

export const recallHandlers: HandlersFor<typeof recallContract> = {
  'recall.explain': ({ at, ...input }, session) => explain(session.readingAt(at), input),
  'recall.run': (input, session) => recallAndLog(session.engine(), input, 'recalled', session.reader),
  'recall.search': (input, session) => recallAndLog(session.engine(), input, 'searched', session.reader),
  'recall.inject': (input, session) => recallAndLog(session.engine(), input, 'injected', session.reader),
  'recall.whyNot': (input, session) => {
    const engine = session.engine();
    return whyNot(engine, resolveRequest(engine, input, { k: 10 }), input.target);
  },
  'recall.profile': (input, session) => {
    const engine = session.reading();
    const profile = profileOf(engine, input.profile);
    return { name: profile.name, store_profile: engine.profile(), config: profileConfig(profile), differences: profileDifferences(profile) };
  },
};
