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
 * The open store's owners (fleet.owners). Under keys.all, so live refresh (useEngineEvents) refetches
 * it when another process writes and a store switch replaces it.
 */
export function useFleetOwners() {
  return useQuery({ queryKey: keys.fleet('owners'), queryFn: () => call('fleet.owners', {}) });
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
