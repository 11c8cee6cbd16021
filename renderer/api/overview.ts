/** The Overview's engine reads: KPIs, facet counts, rows vs reads, the retention × importance sample, maintenance. */
import { useQuery } from '@tanstack/react-query';
import { call } from './client.js';
import { keys } from './keys.js';

export function useKpis() {
  return useQuery({ queryKey: keys.overview('kpis'), queryFn: () => call('stats.kpis', {}), staleTime: 10_000 });
}

export function useOverviewFacets() {
  return useQuery({ queryKey: keys.overview('facets'), queryFn: () => call('overview.facets', {}), staleTime: 10_000 });
}

export function useRowsVsReads() {
  return useQuery({ queryKey: keys.overview('rowsVsReads'), queryFn: () => call('stats.rowsVsReads', {}), staleTime: 10_000 });
}

export function useScatter(sample: number) {
  return useQuery({ queryKey: keys.overview('scatter', sample), queryFn: () => call('overview.scatter', { sample }), staleTime: 10_000 });
}

export function useMaintenance(limit: number) {
  return useQuery({ queryKey: keys.overview('maintenance', limit), queryFn: () => call('overview.maintenance', { limit }), staleTime: 10_000 });
}
