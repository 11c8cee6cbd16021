import { MnemoError } from '../../errors.js';
import type { Engine } from '../../engine/engine.js';
import { ReviewShelf, type ReviewedPlan } from '../../review/review.js';
import { memoryHeads } from '../../store/review-heads.js';
import type { ApiSession } from '../context.js';
import type { reviewContract } from '../contract/review.js';
import { call } from '../service.js';
import type { HandlersFor } from './types.js';

const shelfOf = (engine: Engine) => engine.extension('review.shelf', () => new ReviewShelf(3));

function reviewed(session: ApiSession, id: string): ReviewedPlan {
  const r = shelfOf(session.engine()).get(id);
  if (!r) throw new MnemoError('not_found', `no plan ${id} under review (the last 3 plans of this store are kept); plan again`, { field: 'plan_id', replan: true });
  return r;
}

export const reviewHandlers: HandlersFor<typeof reviewContract> = {
  'review.plan': async (input, session) => {
    const plan = await call(session, 'reflect.plan', input);
    return shelfOf(session.engine()).put(plan).summary();
  },
  'review.items': (input, session) => {
    const { plan_id, op, offset, limit, actions, ...query } = input;
    return reviewed(session, plan_id).items(actions, op ?? null, offset, limit, query, () => memoryHeads(session.engine().store.db));
  },
  'review.counts': (input, session) => reviewed(session, input.plan_id).counts(input.actions),
  'review.commit': async (input, session) => {
    const r = reviewed(session, input.plan_id);
    const accepted = r.accepted(input.actions);
    // reflect.apply keeps its own copy of recent plans by id; hand it the plan itself if it let it go.
    const res = await call(session, 'reflect.apply', { plan_id: r.plan.id, accepted }).catch((err: unknown) => {
      if (err instanceof MnemoError && err.code === 'bad_input' && err.details?.['field'] === 'plan_id') return call(session, 'reflect.apply', { plan: r.plan, accepted });
      throw err;
    });
    return { ...res, accepted: accepted.length };
  },
};
