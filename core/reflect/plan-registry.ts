/**
 * The plans one engine keeps by id: the reflection plans handed out (so `reflect.apply` can take a
 * plan id instead of the plan) and the plans under review (with their review caches). A plan of a
 * 100k-memory store holds ~500k proposals (hundreds of MB), so only the last few of each kind are
 * kept; an older id gets a clear "plan again" from its caller.
 */
import { extensionKey, type EngineReader } from '../engine/engine.js';

/** How many plans of each kind an engine keeps. */
export const KEPT_PLANS = 3;

/** A kind of kept plan; its type carries what is kept, so `get` needs no cast. */
export interface PlanKind<T> {
  readonly name: string;
  /** Brands the kind with T (never set). */
  readonly __value?: T;
}

export const planKind = <T>(name: string): PlanKind<T> => ({ name });

export class PlanRegistry {
  private readonly kinds = new Map<PlanKind<unknown>, Map<string, unknown>>();

  constructor(private readonly keep = KEPT_PLANS) {}

  /** Keeps `value` under `id`, letting the oldest of its kind go past the limit. */
  put<T>(kind: PlanKind<T>, id: string, value: T): T {
    let kept = this.kinds.get(kind as PlanKind<unknown>);
    if (!kept) this.kinds.set(kind as PlanKind<unknown>, (kept = new Map()));
    kept.set(id, value);
    while (kept.size > this.keep) kept.delete(kept.keys().next().value!);
    return value;
  }

  get<T>(kind: PlanKind<T>, id: string): T | undefined {
    return this.kinds.get(kind as PlanKind<unknown>)?.get(id) as T | undefined;
  }
}

const PLAN_REGISTRY = extensionKey('reflect.plans', () => new PlanRegistry());

export const plansOf = (engine: EngineReader): PlanRegistry => engine.get(PLAN_REGISTRY);
