import { MnemoError } from '../../errors.js';
import { KEPT_PLANS, plansOf } from '../../reflect/plan-registry.js';
import { cancelPlanning, planTracked } from '../../reflect/planning.js';
import { cancelledIfCallerGoes } from '../call-signal.js';
import { pairedIds, REVIEWED_PLANS, ReviewedPlan } from '../../review/review.js';
import type { reviewContract } from '../contract/review.js';
import type { HandlersFor, ReadSession } from './types.js';
import { applyAsWriteJob, planOptions } from './shared/reflect-plan.js';
import { memoryHeads, ownerStates } from '../../store/queries/memory-views.js';
import { parseOwnerScope } from '../../model/owner.js';
import { nextTurn } from '../../recall/pipeline.js';
import { conflictPage, prepareConflictIndex } from '../../review/conflicts/queue.js';
import { recallToday } from '../../review/conflicts/recall-today.js';
import { flagContradiction } from '../../engine/contradictions.js';
import { resolveConflict } from '../../review/conflicts/resolutions-api.js';
import { indexBuildsOf } from './shared/index-builds.js';

function reviewed(session: Pick<ReadSession, 'engine'>, id: string): ReviewedPlan {
  const r = plansOf(session.engine()).get(REVIEWED_PLANS, id);
  if (!r) throw new MnemoError('not_found', `no plan ${id} under review (the last ${KEPT_PLANS} plans of this store are kept); plan again`, { field: 'plan_id', replan: true });
  return r;
}

export const reviewHandlers: HandlersFor<typeof reviewContract> = {
  'review.conflicts': async (input, session) => {
    const engine = session.engine();
    // The first build is stepped and reported (recall.indexBuild), so a progress poll is answered meanwhile.
    indexBuildsOf(engine);
    await prepareConflictIndex(engine, nextTurn);
    return conflictPage(engine, { scope: parseOwnerScope(input.owner), kinds: input.kinds, offset: input.offset, limit: input.limit });
  },
  'review.conflictRecall': (input, session) => recallToday(session.engine(), input),
  'review.resolve': (input, session) => resolveConflict(session.engine(), input),
  'review.flag': (input, session) => flagContradiction(session.engine(), input.a_id, input.b_id, input.note),
  'review.plan': async (input, session) => {
    const engine = session.engine();
    const plan = await cancelledIfCallerGoes(() => cancelPlanning(engine), () => planTracked(engine, planOptions(input, session)));
    // Only the paired memories' owners: every memory's head took 18 s at a million, after a plan
    // as after one cancelled in its first minute (with nothing to review).
    const owners = ownerStates(engine.store, pairedIds(plan));
    return plansOf(engine).put(REVIEWED_PLANS, plan.id, new ReviewedPlan(plan, (id) => owners.get(id)?.owner)).summary();
  },
  'review.items': (input, session) => {
    const { plan_id, op, offset, limit, actions, ...query } = input;
    return reviewed(session, plan_id).items(actions, op ?? null, offset, limit, query, () => memoryHeads(session.engine().store));
  },
  'review.counts': (input, session) => reviewed(session, input.plan_id).counts(input.actions),
  'review.commit': async (input, session) => {
    const r = reviewed(session, input.plan_id);
    const accepted = r.accepted(input.actions);
    const res = await applyAsWriteJob(session.engine(), r.plan, accepted, session.runPacing);
    return { ...res, accepted: accepted.length };
  },
};
