/**
 * Privacy: the store's redaction at the door (store.redaction, store.setRedaction) and erasing
 * (memory.erase: its dry run for the confirmation, then the erase itself as the store's long
 * write, followed through journal.progress and cancelled through journal.cancel until its first write).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';

/** Which memories an erase names: exactly one of these. */
export type EraseTarget = { ids: string[] } | { match: string } | { owner: string };

export function useRedaction() {
  return useQuery({ queryKey: keys.privacy('redaction'), queryFn: () => call('store.redaction', {}) });
}

export function useSetRedaction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: InputOf<'store.setRedaction'>) => call('store.setRedaction', v),
    onSuccess: (view) => {
      qc.setQueryData(keys.privacy('redaction'), view);
      return qc.invalidateQueries({ queryKey: keys.journal('history') });
    },
  });
}

/** What an erase would remove (nothing is written); fetched once per target, never refetched behind the reader's back. */
export function useErasePlan(target: EraseTarget | null) {
  return useQuery({
    queryKey: keys.privacy('plan', target),
    queryFn: () => call('memory.erasePlan', target!),
    enabled: target !== null,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useErase() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (target: EraseTarget) => call('memory.erase', target),
    // Everything shown may have held what went: every view reads the store again.
    onSettled: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

/** The store's running long write, polled while `on` (the erase's phase, n of N, whether it can still be cancelled). */
export function useWriteProgress(on: boolean) {
  return useQuery({ queryKey: keys.privacy('progress'), queryFn: () => call('journal.progress', {}), enabled: on, refetchInterval: on ? 400 : false });
}

export function useCancelWrite() {
  return useMutation({ mutationFn: () => call('journal.cancel', {}) });
}
