/**
 * The Scorer lab's engine calls: the profiles, the logged query set, and the long runs. A run over
 * many queries (or sweep points) is sent as one call per chunk, so the view shows n of N and a
 * cancel stops before the next chunk: the lab only reads, so nothing needs taking back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { LabQuery } from '../../core/api/contract/lab.js';
import type { InputOf, OutputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';

export function useProfiles() {
  return useQuery({ queryKey: keys.profiles('list'), queryFn: () => call('profiles.list', {}), staleTime: 10_000 });
}

export function useProfile(name: string | null) {
  return useQuery({ queryKey: keys.profiles('get', name), queryFn: () => call('profiles.get', { name: name! }), enabled: !!name, staleTime: 10_000 });
}

export function useLabKnobs() {
  return useQuery({ queryKey: keys.lab('knobs'), queryFn: () => call('lab.knobs', {}), staleTime: Infinity });
}

export function useLoggedQueries() {
  return useQuery({ queryKey: keys.lab('queries'), queryFn: () => call('lab.queries', { limit: 200 }), staleTime: 10_000 });
}

export function useSaveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'profiles.save'>) => call('profiles.save', input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.profiles('list').slice(0, 2) }),
  });
}

/** Queries per lab.compare call: small enough that progress moves and a cancel answers quickly. */
export const COMPARE_CHUNK = 5;

export interface ChunkedRun<T> {
  running: boolean;
  done: number;
  total: number;
  results: T[];
  error: unknown;
  cancelled: boolean;
  start(chunks: (() => Promise<T>)[]): Promise<void>;
  cancel(): void;
}

/** Runs chunks one after another, keeping what came back; cancel stops before the next chunk. */
export function useChunkedRun<T>(): ChunkedRun<T> {
  const [state, setState] = useState({ running: false, done: 0, total: 0, results: [] as T[], error: null as unknown, cancelled: false });
  const token = useRef(0);
  const start = useCallback(async (chunks: (() => Promise<T>)[]) => {
    const mine = ++token.current;
    setState({ running: true, done: 0, total: chunks.length, results: [], error: null, cancelled: false });
    const results: T[] = [];
    for (const chunk of chunks) {
      try {
        results.push(await chunk());
      } catch (error) {
        if (token.current === mine) setState((s) => ({ ...s, running: false, error }));
        return;
      }
      if (token.current !== mine) return;
      setState((s) => ({ ...s, done: results.length, results: [...results] }));
    }
    setState((s) => ({ ...s, running: false }));
  }, []);
  const cancel = useCallback(() => {
    token.current++;
    // Only a run under way can be cancelled: "cancelled after 0 of 0" before anything ran was untrue.
    setState((s) => (s.running ? { ...s, running: false, cancelled: true } : s));
  }, []);
  return { ...state, start, cancel };
}

export function compareChunks(queries: LabQuery[], input: Omit<InputOf<'lab.compare'>, 'queries'>): (() => Promise<OutputOf<'lab.compare'>>)[] {
  const out: (() => Promise<OutputOf<'lab.compare'>>)[] = [];
  for (let i = 0; i < queries.length; i += COMPARE_CHUNK) {
    const slice = queries.slice(i, i + COMPARE_CHUNK);
    out.push(() => call('lab.compare', { ...input, queries: slice }));
  }
  return out;
}

/** One lab.sweep call per value, so each point shows as it arrives. */
export function sweepChunks(values: number[], input: Omit<InputOf<'lab.sweep'>, 'values'>): (() => Promise<OutputOf<'lab.sweep'>>)[] {
  return values.map((v) => () => call('lab.sweep', { ...input, values: [v] }));
}

/** How often the fit's progress is asked while lab.fit runs. */
const FIT_POLL_MS = 400;

/**
 * The lab's fit: one long lab.fit call, its progress polled from lab.fitProgress while it runs,
 * and Cancel (lab.fitCancel: the fit stops before its next evaluation and its call fails).
 */
export function useLabFit() {
  const fit = useMutation({ mutationFn: (input: InputOf<'lab.fit'>) => call('lab.fit', input) });
  const progress = useQuery({
    queryKey: keys.lab('fit-progress'),
    queryFn: () => call('lab.fitProgress', {}),
    enabled: fit.isPending,
    refetchInterval: fit.isPending ? FIT_POLL_MS : false,
  });
  const cancel = useMutation({ mutationFn: () => call('lab.fitCancel', {}) });
  return { fit, progress: fit.isPending ? (progress.data ?? null) : null, cancel };
}
