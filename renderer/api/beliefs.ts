/** The belief layer through the engine: entities, an entity's dimensions as of T, its delta log, alias proposals. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';

export function useBeliefEntities(search: string) {
  return useQuery({ queryKey: keys.beliefs('entities', search), queryFn: () => call('beliefs.entities', { ...(search ? { search } : {}), limit: 500 }), placeholderData: keepPreviousData });
}

export function useBeliefEntity(entity: string | null, at: number | null) {
  return useQuery({
    queryKey: keys.beliefs('entity', { entity, at }),
    queryFn: () => call('beliefs.entity', { entity: entity!, ...(at !== null ? { at } : {}), mode: 'as-of' }),
    enabled: !!entity,
    placeholderData: keepPreviousData,
  });
}

export function useBeliefConfig() {
  return useQuery({ queryKey: keys.beliefs('config'), queryFn: () => call('beliefs.config', {}), staleTime: 60_000 });
}

export function useBeliefDeltas(entity: string | null) {
  return useQuery({ queryKey: keys.beliefs('deltas', entity), queryFn: () => call('beliefs.deltas', { entity: entity!, limit: 5000 }), enabled: !!entity });
}

export function useAliasPlan() {
  return useQuery({ queryKey: keys.beliefs('aliases.plan'), queryFn: () => call('beliefs.aliases.plan', {}) });
}

export function useAliasList() {
  return useQuery({ queryKey: keys.beliefs('aliases.list'), queryFn: () => call('beliefs.aliases.list', {}) });
}

export function useApplyAliases() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (v: InputOf<'beliefs.aliases.apply'>) => call('beliefs.aliases.apply', v), onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }) });
}

export function useRejectAlias() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (v: { a: string; b: string }) => call('beliefs.aliases.reject', v), onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }) });
}
