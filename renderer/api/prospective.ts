/** Prospective memory through the engine: intents by state, the scheduler's dry run, todos by status. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { InputOf } from '../../core/api/contract/index.js';
import { call } from './client.js';
import { keys } from './keys.js';

export function useIntents(state: 'pending' | 'fired' | 'unscheduled' | 'all') {
  return useQuery({ queryKey: [...keys.all, 'intents', state], queryFn: () => call('intents.list', { state }) });
}

export function useDue(input: InputOf<'intents.due'> | null) {
  return useQuery({ queryKey: [...keys.all, 'intents.due', input], queryFn: () => call('intents.due', input ?? {}), enabled: input !== null, placeholderData: keepPreviousData });
}

export function useTodos(status: 'open' | 'done' | 'dropped' | 'all') {
  return useQuery({ queryKey: [...keys.all, 'todos', status], queryFn: () => call('todos.list', { status }) });
}
