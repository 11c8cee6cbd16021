/**
 * Curation and the journal: every change the workbench makes is one journalled engine call, so
 * History can undo it. Each mutation refreshes every open view when it succeeds.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';
import { changeLabel, useUndoToast } from '../state/undo-toast.js';

const offerUndo = (label: string, changeId: number | null | undefined) => useUndoToast.getState().offerUndo(label, changeId);

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keys.all });
}

export function useUpdateMemory() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: InputOf<'memory.update'>) => call('memory.update', v),
    onSuccess: (r) => (offerUndo(r.changed.length ? `Changed ${r.changed.join(', ')}` : 'Saved', r.change_id), invalidate()),
  });
}

export function useLink() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (v: InputOf<'edge.add'>) => call('edge.add', v), onSuccess: invalidate });
}

export function useLinkMany() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (v: InputOf<'edge.addMany'>) => call('edge.addMany', v), onSuccess: invalidate });
}

export function useUnlink() {
  const invalidate = useInvalidate();
  // Removing an edge is destructive: the toast offers it back at once (Undo), as for archive and forget.
  return useMutation({
    mutationFn: (v: InputOf<'edge.remove'>) => call('edge.remove', v),
    onSuccess: (r, v) => (offerUndo(`Removed the ${v.type} edge`, r.change_id), invalidate()),
  });
}

export function useForget() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (ids: string[]) => call('memory.forget', { ids }),
    onSuccess: (r) => (offerUndo(changeLabel('Forgot', r.forgotten.length), r.change_id), invalidate()),
  });
}

export function useMerge() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (v: InputOf<'memory.merge'>) => call('memory.merge', v),
    onSuccess: (r) => (offerUndo(`Merged ${r.archived.length + 1} memories`, r.change_id), invalidate()),
  });
}

export function useUndo() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (changeId: number) => call('journal.undo', { change_id: changeId }), onSuccess: invalidate });
}

/** The later changes that depend on one (what "undo with the changes that depend on it" would undo). */
export function useDependents(changeId: number | null) {
  return useQuery({
    queryKey: keys.journal('dependents', changeId),
    queryFn: () => call('journal.dependents', { change_id: changeId!, limit: 50 }),
    enabled: changeId !== null,
  });
}

/** Undoes a change together with every later change that depends on it, as one step. */
export function useUndoWithDependents() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (changeId: number) => call('journal.undo', { change_id: changeId, with_dependents: true }), onSuccess: invalidate });
}

export function useRedo() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (changeId: number | undefined) => call('journal.redo', changeId === undefined ? {} : { change_id: changeId }), onSuccess: invalidate });
}

/** A page of the journal; `credential` (an id, or "local") keeps one credential's changes; `enabled` waits until it is checked. */
export function useHistory(limit: number, offset: number, credential: string | null = null, enabled = true) {
  const input = { limit, offset, ...(credential !== null ? { credential } : {}) };
  return useQuery({ queryKey: keys.journal('history', input), queryFn: () => call('journal.history', input), enabled });
}

export function useChangeRows(changeId: number | null) {
  return useQuery({ queryKey: keys.journal('rows', changeId), queryFn: () => call('journal.rows', { change_id: changeId! }), enabled: changeId !== null });
}

/** Short descriptions (type, head, archived) for a set of ids, for plan items and change rows. */
export function useHeads(ids: string[]) {
  const sorted = [...new Set(ids)].sort();
  return useQuery({
    queryKey: keys.heads(sorted),
    queryFn: async () => {
      const out = new Map<string, { head: string; type: string; owner: string; archived: boolean }>();
      for (let i = 0; i < sorted.length; i += 5000) {
        const r = await call('memory.list', { ids: sorted.slice(i, i + 5000), archived: 'all', limit: 5000 });
        for (const m of r.rows) out.set(m.id, { head: m.head, type: m.type, owner: m.owner, archived: m.archived });
      }
      return out;
    },
    enabled: sorted.length > 0,
    staleTime: 30_000,
  });
}
