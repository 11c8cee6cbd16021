/**
 * The conflict queue: a page of it, what recall returns today for one item (asked per item, so the
 * page shows at once), and resolutions, each one journalled change offered back as "Undo".
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf, OutputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';
import { useUndoToast } from '../state/undo-toast.js';

export type ConflictsInput = InputOf<'review.conflicts'>;

export function useConflicts(input: ConflictsInput) {
  return useQuery({ queryKey: [...keys.all, 'conflicts', input], queryFn: () => call('review.conflicts', input), placeholderData: keepPreviousData });
}

export function useRecallToday(input: InputOf<'review.conflictRecall'> | null) {
  return useQuery({
    queryKey: [...keys.all, 'conflicts', 'recall-today', input],
    queryFn: () => call('review.conflictRecall', input!),
    enabled: input !== null,
  });
}

/** What the undo toast says after each resolution. */
function resolvedLabel(r: OutputOf<'review.resolve'>): string {
  switch (r.do) {
    case 'supersede':
      return 'Marked superseded';
    case 'forget':
      return 'Forgot 1 memory';
    case 'both_hold':
      return 'Kept both';
    case 'merge':
      return 'Merged 2 memories';
    case 'assert':
      return `Asserted ${r.attribute ?? 'the value'}`;
    case 'reject':
      return 'Rejected 1 observation';
  }
}

export function useResolve() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: InputOf<'review.resolve'>) => call('review.resolve', v),
    onSuccess: (r) => {
      useUndoToast.getState().offerUndo(resolvedLabel(r), r.change_id);
      void qc.invalidateQueries({ queryKey: keys.all });
    },
  });
}
