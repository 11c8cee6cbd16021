/**
 * Prospective memory for the workbench: intents (pending, fired, unscheduled), a dry run of which
 * would fire for a given time, message and events, and todos by status. Reading these logs no
 * access: this is inspection, not an agent's recall.
 */
import { z } from 'zod';
import { TODO_STATUSES } from '../../model/enums.js';
import type { IntentView, TodoView } from '../../prospective/views.js';
import { method } from '../define.js';
import { epochSeconds } from '../../model/limits.js';

/** Owner scope: absent, null or "*" = everyone; "role" = every instance of it; "role@inst" = one instance. */
const scope = z.string().max(200).nullable().optional();

export interface IntentListResult {
  counts: { pending: number; fired: number; unscheduled: number };
  /** Pending time intents whose fire_at is before `now` (see isOverdue). */
  overdue: number;
  /** The engine's clock when the list was read (what "overdue" was judged against). */
  now: number;
  rows: (IntentView & { overdue: boolean })[];
}

export interface DueIntentRow extends IntentView {
  /** Why it would fire. */
  reason: string;
}

export interface IntentDueResult {
  now: number;
  rows: DueIntentRow[];
}

export interface TodoListResult {
  counts: { open: number; done: number; dropped: number };
  rows: TodoView[];
}

export const prospectiveContract = {
  'intents.list': method<IntentListResult>()({
    description: 'Intents with their trigger and state: pending (by deadline), fired (newest first, with why and by whom), unscheduled.',
    input: z
      .object({ owner: scope, state: z.enum(['pending', 'fired', 'unscheduled', 'all']).optional().default('all') })
      .optional()
      .default({ state: 'all' }),
  }),
  'intents.due': method<IntentDueResult>()({
    description: 'Dry run of the scheduler: the pending intents that would fire at `now` given a message and events. Writes nothing.',
    input: z
      .object({
        owner: scope,
        now: epochSeconds('now').optional(),
        message: z.string().max(100_000).optional(),
        events: z.array(z.string().min(1, 'event names cannot be empty').max(200)).max(1000).optional(),
      })
      .optional()
      .default({}),
  }),
  'todos.list': method<TodoListResult>()({
    description: 'Todos by status (open by default), highest importance first, then oldest first.',
    input: z
      .object({ owner: scope, status: z.enum([...TODO_STATUSES, 'all']).optional().default('open') })
      .optional()
      .default({ status: 'open' }),
  }),
};
