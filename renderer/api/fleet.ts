/** Fleet: the open store's owners, a folder of stores the user chose, each store's KPIs (read-only), and opening one in full. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, getTransport } from './client.js';
import { keys } from './keys.js';

/** Electron can show a folder dialog; browser mode takes a typed path (or mnemo serve --fleet). */
export function canChooseFolder(): boolean {
  return getTransport().kind === 'ipc';
}

export function useFleet() {
  return useQuery({ queryKey: keys.fleet('list'), queryFn: () => call('fleet.list', {}) });
}

export function useFleetKpis(name: string) {
  return useQuery({ queryKey: keys.fleet('kpis', name), queryFn: () => call('fleet.kpis', { name }), staleTime: 30_000 });
}

/**
 * The open store's owners (fleet.owners). Reading them groups every access event: about 2 s on a
 * 100k SQLite store, while that server answers nothing else. Refetched on every commit of the agents
 * it watches, it would hold the server most of the time; so a live change does not refetch it
 * (useEngineEvents skips queries marked `liveByInterval`). It is read again on an interval of ten
 * times its last read, at least 10 s: at most a tenth of the server's time. A store switch still
 * replaces it at once.
 */
export const OWNERS_MIN_REFRESH_MS = 10_000;
let lastOwnersReadMs = 0;

export function useFleetOwners() {
  return useQuery({
    queryKey: keys.fleet('owners'),
    queryFn: async () => {
      const t0 = performance.now();
      try {
        return await call('fleet.owners', {});
      } finally {
        lastOwnersReadMs = performance.now() - t0;
      }
    },
    meta: { liveByInterval: true },
    refetchInterval: () => Math.max(OWNERS_MIN_REFRESH_MS, 10 * lastOwnersReadMs),
  });
}

export function useOpenFleet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { folder: string } | { choose: true }) => ('folder' in v ? call('fleet.open', { folder: v.folder }) : call('fleet.choose', {})),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.fleet('list') }),
  });
}

export function useOpenFleetStore() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (name: string) => call('fleet.openStore', { name }), onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }) });
}
