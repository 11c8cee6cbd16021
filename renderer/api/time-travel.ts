/**
 * Time travel over the store's change feed: what an instant resolves to, what changed between two
 * instants, titles as they were, and replaying a logged access against the store as it was then.
 * Answers about the past are cached under keys.past, which live refresh leaves alone.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { instantParam } from '../state/instant.js';
import { useRoute } from '../state/router.js';
import { call } from './client.js';
import { keys } from './keys.js';
import { useStoreInfo } from './hooks.js';

/** The past does not change: ask once per instant (a store switch clears the cache). */
const PAST = { staleTime: Infinity, retry: false } as const;

/** What `at` resolves to (how many later changes it hides, the earliest reachable instant); off while live. */
export function useAsOf(at: number | null) {
  return useQuery({ queryKey: keys.asOf(at ?? -1), queryFn: () => call('store.asOf', { at: at! }), enabled: at !== null, ...PAST });
}

/**
 * The earliest instant the store's history reaches (null until known, or when the store has none):
 * asked once, at the moment the view opened, so a quick step back never asks for an instant the
 * engine must refuse (−1 h on a new store was a 400 in the console).
 */
export function useHistoryStart(): number | null {
  const info = useStoreInfo();
  // Asked at the engine's now (a frozen clock's too), which every store with a history can show. A
  // store opened read-only may have none yet (a nooa file): then nothing is asked.
  const at = info.data && !info.data.readonly ? Math.floor(info.data.now) : null;
  const q = useQuery({ queryKey: [...keys.past, 'historyStart'], queryFn: () => call('store.asOf', { at: at! }), enabled: at !== null, ...PAST });
  return q.data ? Math.ceil(q.data.earliest) : null;
}

export interface DiffRequest {
  from: number;
  to: number;
  limit: number;
}

/** What changed between two instants; a bigger limit ("show more") keeps the shorter list on screen while it loads. */
export function useStoreDiff(req: DiffRequest | null) {
  return useQuery({
    queryKey: keys.diff(req),
    queryFn: () => call('store.diff', { from: req!.from, to: req!.to, limit: req!.limit }),
    enabled: req !== null,
    placeholderData: keepPreviousData,
    ...PAST,
  });
}

const HEAD_BATCH = 5000;

/** Titles (type, head) of a set of memories as they were at `at`: a deleted memory still has its name then. */
export function usePastHeads(ids: string[], at: number | null) {
  const sorted = [...new Set(ids)].sort();
  return useQuery({
    queryKey: keys.pastHeads(sorted, at ?? -1),
    queryFn: async () => {
      const out = new Map<string, { head: string; type: string }>();
      for (let i = 0; i < sorted.length; i += HEAD_BATCH) {
        const r = await call('memory.list', { ids: sorted.slice(i, i + HEAD_BATCH), archived: 'all', limit: HEAD_BATCH, at: at! });
        for (const m of r.rows) out.set(m.id, { head: m.head, type: m.type });
      }
      return out;
    },
    enabled: sorted.length > 0 && at !== null,
    ...PAST,
  });
}

/** One memory's full text at an instant (for a text diff); null when it did not exist then. */
export function usePastMemory(id: string, at: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.pastMemoryText(id, at),
    queryFn: () =>
      call('memory.get', { id, at }).then(
        (d) => d.memory,
        (e: unknown) => {
          if ((e as { code?: unknown }).code === 'not_found') return null;
          throw e;
        },
      ),
    enabled,
    ...PAST,
  });
}

/** Replays a logged access against the store as it was just before it was logged. */
export function useReplayThen(eventId: number, enabled: boolean) {
  return useQuery({ queryKey: keys.replayThen(eventId), queryFn: () => call('access.replay', { event_id: eventId, as_of_then: true }), enabled, ...PAST });
}

/** The latest journalled changes, as instants the time control can jump to. */
export function useRecentChanges(limit = 30) {
  return useQuery({ queryKey: keys.journal('instants', limit), queryFn: () => call('journal.history', { limit }), staleTime: 10_000 });
}

/**
 * The instant the current view shows (from the URL) and whether its reads may go: a view of the
 * past waits until the instant is known to be reachable, so an instant before the history's start
 * is explained once (by the time control) instead of failing every read in the view.
 */
export function useViewInstant() {
  const { at, error } = instantParam(useRoute().params);
  const asOf = useAsOf(at);
  return { at, urlError: error, asOf, ready: at === null || asOf.data !== undefined };
}
