/** react-query hooks over the engine: the only way views read or change the store. */
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { InputOf } from '../../core/api/contract/index.js';
import { call, getTransport } from './client.js';
import { keys } from './keys.js';
import type { EngineEvent } from './transport.js';
import { changeLabel, useUndoToast } from '../state/undo-toast.js';

export const PAGE_SIZE = 200;

export type ListFilter = Omit<InputOf<'memory.list'>, 'offset' | 'limit'>;

export function useStoreInfo() {
  return useQuery({ queryKey: keys.store(), queryFn: () => call('store.info', {}) });
}

/** Facet counts; `enabled` lets the list ask for its first page before these (bigger) counts. */
export function useFacets(input: InputOf<'memory.facets'>, enabled = true) {
  return useQuery({ queryKey: [...keys.facets(), input], queryFn: () => call('memory.facets', input), staleTime: 10_000, enabled });
}

/**
 * The memory list as pages fetched on demand: only the pages under the visible rows are asked
 * for, so a 100k-row table costs one 200-row page per screenful.
 */
export function useMemoryPages(filter: ListFilter, firstRow: number, lastRow: number) {
  const first = Math.max(0, Math.floor(firstRow / PAGE_SIZE));
  const last = Math.max(first, Math.floor(lastRow / PAGE_SIZE));
  const pages = [0];
  for (let p = Math.max(first, 1); p <= last; p++) pages.push(p);
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: keys.memoryPage(filter, page),
      queryFn: () => call('memory.list', { ...filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
      placeholderData: page === 0 ? keepPreviousData : undefined,
    })),
  });
  const head = results[0];
  const byPage = new Map<number, (typeof results)[number]['data']>();
  pages.forEach((p, i) => byPage.set(p, results[i]?.data));
  return {
    total: head?.data?.total ?? null,
    isLoading: head?.isLoading ?? true,
    isFetching: results.some((r) => r.isFetching),
    error: results.find((r) => r.error)?.error ?? null,
    rowAt: (i: number) => byPage.get(Math.floor(i / PAGE_SIZE))?.rows[i % PAGE_SIZE] ?? null,
  };
}

export function useMemory(id: string | null) {
  return useQuery({ queryKey: keys.memory(id ?? ''), queryFn: () => call('memory.get', { id: id! }), enabled: !!id });
}

export function useGraph(input: InputOf<'graph.view'>, enabled = true) {
  return useQuery({ queryKey: keys.graph(input), queryFn: () => call('graph.view', input), enabled, placeholderData: keepPreviousData });
}

function useInvalidateAll() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: keys.all });
}

export function useArchive() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (v: { ids: string[]; archived: boolean }) => (v.archived ? call('memory.archive', { ids: v.ids }) : call('memory.restore', { ids: v.ids })),
    onSuccess: (r, v) => {
      useUndoToast.getState().offerUndo(changeLabel(v.archived ? 'Archived' : 'Restored', v.ids.length), r.change_id);
      return invalidate();
    },
  });
}

export function useTag() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (v: { ids: string[]; add?: string[]; remove?: string[] }) => call('memory.tag', { ids: v.ids, add: v.add ?? [], remove: v.remove ?? [] }),
    onSuccess: invalidate,
  });
}

/** Live refresh: when another process writes the store, every open view refetches. */
export function useEngineEvents(onEvent?: (e: EngineEvent) => void) {
  const qc = useQueryClient();
  useEffect(
    () =>
      getTransport().subscribe((e) => {
        if (e.type === 'changed' || e.type === 'store') void qc.invalidateQueries({ queryKey: keys.all });
        onEvent?.(e);
      }),
    [qc, onEvent],
  );
}
