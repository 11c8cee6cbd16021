/**
 * The store's running long write (a reflection commit, an undo or redo of a big change), as the
 * engine reports it: its phase, n of N and an ETA (`journal.progress`), polled only while a call
 * that runs one is pending, and its cancel (`journal.cancel`).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from './client.js';
import { keys } from './keys.js';

/** How often the progress is asked for while a long write runs. */
const POLL_MS = 500;

export function useWriteJobProgress(running: boolean) {
  return useQuery({
    queryKey: [...keys.all, 'journal', 'write-job'],
    queryFn: () => call('journal.progress', {}),
    enabled: running,
    refetchInterval: running ? POLL_MS : false,
    staleTime: 0,
  });
}

/** Cancels the running long write: the engine takes back what it wrote, the store is as it was. */
export function useCancelWriteJob() {
  return useMutation({ mutationFn: () => call('journal.cancel', {}) });
}

/** Whether a failed long write failed because it was cancelled (and so left the store as it was). */
export function wasCancelled(error: unknown): boolean {
  return (error as { details?: Record<string, unknown> } | null)?.details?.['cancelled'] === true;
}
