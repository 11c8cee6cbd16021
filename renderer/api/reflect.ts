/**
 * Reflection through the engine: a dry-run plan (a long call) kept by the engine for review, its
 * progress polled while it runs, pages of its items and the counts under the reviewer's actions,
 * and commit (the accepted items as one journalled change; its progress and cancel: jobs.ts).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf, ReviewAction } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';

export type PlanInput = InputOf<'review.plan'>;

export function usePlan() {
  return useMutation({ mutationFn: (input: PlanInput) => call('review.plan', input) });
}

/** The LLM endpoints the engine's side configured (names and models only), for the generative ops. */
export function useLlmEndpoints(enabled: boolean) {
  return useQuery({ queryKey: [...keys.all, 'reflect', 'endpoints'], queryFn: () => call('reflect.endpoints', {}), enabled, staleTime: Infinity });
}

/** Where the running plan is; polled only while one runs. */
export function usePlanProgress(running: boolean) {
  return useQuery({
    queryKey: [...keys.all, 'reflect', 'progress'],
    queryFn: () => call('reflect.progress', {}),
    enabled: running,
    refetchInterval: running ? 250 : false,
    staleTime: 0,
  });
}

export function useCancelPlan() {
  return useMutation({ mutationFn: () => call('reflect.cancel', {}) });
}

/** How a step's items are filtered, sorted and sampled (review.items' query fields). */
export type ItemQuery = Omit<InputOf<'review.items'>, 'plan_id' | 'op' | 'offset' | 'limit' | 'actions'>;

export function useReviewItems(planId: string | null, op: string, limit: number, actions: ReviewAction[], query: ItemQuery = {}) {
  return useQuery({
    queryKey: [...keys.all, 'review', 'items', planId, op, limit, actions, query],
    queryFn: () => call('review.items', { plan_id: planId!, op: op as never, offset: 0, limit, actions, ...query }),
    enabled: planId !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useReviewCounts(planId: string | null, actions: ReviewAction[]) {
  return useQuery({
    queryKey: [...keys.all, 'review', 'counts', planId, actions],
    queryFn: () => call('review.counts', { plan_id: planId!, actions }),
    enabled: planId !== null,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useCommitPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { plan_id: string; actions: ReviewAction[] }) => call('review.commit', v),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.all, predicate: (q) => q.queryKey[1] !== 'review' }),
  });
}
