/** react-query hooks over the engine: the only way views read or change the store. */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { InputOf } from '../../core/api/contract/index.js';
import { call, getTransport } from './client.js';
import { keys, sameTimeline } from './keys.js';
import type { EngineEvent } from './transport.js';
import { changeLabel, useUndoToast } from '../state/undo-toast.js';

export const PAGE_SIZE = 200;

export type ListFilter = Omit<InputOf<'memory.list'>, 'offset' | 'limit'>;

/** While another writer's long change holds the counts, read again every few seconds: its end may come with no event here. */
const HELD_COUNTS_POLL_MS = 2_000;

export function useStoreInfo() {
  return useQuery({ queryKey: keys.store(), queryFn: () => call('store.info', {}), refetchInterval: (q) => (q.state.data?.counts_held ? HELD_COUNTS_POLL_MS : false) });
}

/** Facet counts; `enabled` lets the list ask for its first page before these (bigger) counts; `at` counts the store as it was then. */
export function useFacets(input: NonNullable<InputOf<'memory.facets'>>, enabled = true, at: number | null = null) {
  return useQuery({
    queryKey: at === null ? [...keys.facets(), input] : keys.pastFacets(input, at),
    queryFn: () => call('memory.facets', at === null ? input : { ...input, at }),
    staleTime: 10_000,
    enabled,
  });
}

/**
 * The memory list as pages fetched on demand: only the pages under the visible rows are asked
 * for, so a 100k-row table costs one 200-row page per screenful. With `at`, the list as it was
 * at that instant (cached apart from the live list, so live refresh does not replace it).
 */
export function useMemoryPages(filter: ListFilter, firstRow: number, lastRow: number, at: number | null = null, enabled = true) {
  const first = Math.max(0, Math.floor(firstRow / PAGE_SIZE));
  const last = Math.max(first, Math.floor(lastRow / PAGE_SIZE));
  const pages = [0];
  for (let p = Math.max(first, 1); p <= last; p++) pages.push(p);
  const results = useQueries({
    queries: pages.map((page) => {
      const queryKey = at === null ? keys.memoryPage(filter, page) : keys.pastMemoryPage(filter, page, at);
      return {
        queryKey,
        queryFn: () => call('memory.list', { ...filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...(at === null ? {} : { at }) }),
        placeholderData: page === 0 ? sameTimeline(queryKey) : undefined,
        enabled,
      };
    }),
  });
  const head = results[0];
  const byPage = new Map<number, (typeof results)[number]['data']>();
  pages.forEach((p, i) => byPage.set(p, results[i]?.data));
  return {
    total: head?.data?.total ?? null,
    isLoading: (head?.isLoading ?? true) || !enabled,
    isFetching: results.some((r) => r.isFetching),
    error: results.find((r) => r.error)?.error ?? null,
    rowAt: (i: number) => byPage.get(Math.floor(i / PAGE_SIZE))?.rows[i % PAGE_SIZE] ?? null,
  };
}

export function useMemory(id: string | null, at: number | null = null, enabled = true) {
  return useQuery({
    queryKey: at === null ? keys.memory(id ?? '') : keys.pastMemory(id ?? '', at),
    queryFn: () => call('memory.get', at === null ? { id: id! } : { id: id!, at }),
    enabled: !!id && enabled,
  });
}

/** The graph, live or (with `at` in the input) as it was at that instant. */
export function useGraph(input: InputOf<'graph.view'>, enabled = true) {
  const at = input.at ?? null;
  const queryKey = at === null ? keys.graph(input) : keys.pastGraph(input, at);
  return useQuery({ queryKey, queryFn: () => call('graph.view', input), enabled, placeholderData: sameTimeline(queryKey) });
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

/**
 * Live refresh: when another process writes the store, every open live view refetches. Views of a
 * past instant stay as they are (the past did not change); another store makes them meaningless, so
 * a store switch drops them.
 */
export function useEngineEvents(onEvent?: (e: EngineEvent) => void) {
  const qc = useQueryClient();
  useEffect(
    () =>
      getTransport().subscribe((e) => {
        if (e.type === 'store') qc.removeQueries({ queryKey: keys.past });
        if (e.type === 'store') void qc.invalidateQueries({ queryKey: keys.all });
        // Queries too costly to read on every commit refetch on their own interval (renderer/api/fleet.ts).
        if (e.type === 'changed') void qc.invalidateQueries({ queryKey: keys.all, predicate: (q) => q.meta?.['liveByInterval'] !== true });
        onEvent?.(e);
      }),
    [qc, onEvent],
  );
}
