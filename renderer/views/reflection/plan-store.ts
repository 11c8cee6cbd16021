/**
 * The plan under review outlives the view (switching to Memories and back keeps it): its summary,
 * the reviewer's actions in order (the engine derives every item's state from them), and the
 * commit result.
 */
import { create } from 'zustand';
import type { PlanSummary, ReviewAction } from '../../../core/api/contract/index.js';
import type { ApplyResult } from '../../../core/reflect/types.js';

interface PlanState {
  plan: PlanSummary | null;
  actions: ReviewAction[];
  result: ApplyResult | null;
  setPlan(plan: PlanSummary | null): void;
  act(a: ReviewAction): void;
  undoAction(): void;
  setResult(r: ApplyResult | null): void;
}

export const usePlanStore = create<PlanState>((set, get) => ({
  plan: null,
  actions: [],
  result: null,
  setPlan: (plan) => set({ plan, actions: [], result: null }),
  act: (a) => set({ actions: [...get().actions, a] }),
  undoAction: () => set({ actions: get().actions.slice(0, -1) }),
  setResult: (result) => set({ result }),
}));
