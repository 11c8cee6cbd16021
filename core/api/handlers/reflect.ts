import { badInput } from '../../errors.js';
import { parsePlan } from '../../reflect/plan-schema.js';
import { KEPT_PLANS, plansOf } from '../../reflect/plan-registry.js';
import { cancelPlanning, planningProgress, planTracked, REFLECTION_PLANS } from '../../reflect/planning.js';
import type { ReflectionPlan } from '../../reflect/types.js';
import type { reflectContract } from '../contract/reflect.js';
import type { HandlersFor } from './types.js';
import { cancelledIfCallerGoes } from '../call-signal.js';
import { applyAsWriteJob, planOptions } from './shared/reflect-plan.js';

export const reflectHandlers: HandlersFor<typeof reflectContract> = {
  'reflect.plan': (input, session) => {
    const engine = session.engine();
    return cancelledIfCallerGoes(() => cancelPlanning(engine), () => planTracked(engine, planOptions(input, session)));
  },
  'reflect.endpoints': (_input, session) => ({ endpoints: session.llmEndpoints().summaries() }),
  'reflect.progress': (_input, session) => planningProgress(session.engine()),
  'reflect.cancel': (_input, session) => cancelPlanning(session.engine()),
  'reflect.apply': (input, session) => {
    const engine = session.engine();
    let plan: ReflectionPlan;
    if (input.plan !== undefined) plan = parsePlan(input.plan);
    else {
      const kept = plansOf(engine).get(REFLECTION_PLANS, input.plan_id!);
      if (!kept) throw badInput(`no plan ${input.plan_id} in this session (plans are kept for the last ${KEPT_PLANS} reflect.plan calls); pass the plan itself or plan again`, { field: 'plan_id' });
      plan = kept;
    }
    return applyAsWriteJob(engine, plan, input.accepted ?? null, session.runPacing);
  },
};
