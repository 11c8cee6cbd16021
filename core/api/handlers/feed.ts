import type { feedContract } from '../contract/feed.js';
import type { HandlersFor } from './types.js';
import { feedRetention, setFeedRetention } from '../../store/queries/feed-retention.js';

export const feedHandlers: HandlersFor<typeof feedContract> = {
  'feed.status': (_input, session) => session.reading().store.queries.feedStatus(),
  'feed.retention': (input, session) => {
    const store = session.engine().store;
    const current = feedRetention(store);
    const days = input.days ?? current.days;
    return setFeedRetention(store, { days, access_days: Math.min(input.access_days ?? current.access_days, days) });
  },
  'feed.prune': async (_input, session) => {
    const engine = session.engine();
    return engine.store.runs.pruneFeed(engine.now());
  },
};
