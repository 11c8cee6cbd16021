/**
 * Intents for the workbench: pending, fired and unscheduled, and a dry run of which would fire for
 * a given time, message and events. Reading these logs no access: this is inspection, not an
 * agent's recall.
 */
import { z } from 'zod';
import type { IntentView } from '../../prospective/views.js';
import { method } from '../define.js';
import { epochSeconds } from '../../model/limits.js';
import { scopeField } from './shared/fields.js';

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

export const intentsContract = {
  'intents.list': method<IntentListResult>()({
    description: 'Intents with their trigger and state: pending (by deadline), fired (newest first, with why and by whom), unscheduled.',
    input: z
      .object({ owner: scopeField, state: z.enum(['pending', 'fired', 'unscheduled', 'all']).optional().default('all') })
      .optional()
      .default({ state: 'all' }),
  }),
  'intents.due': method<IntentDueResult>()({
    description: 'Dry run of the scheduler: the pending intents that would fire at `now` given a message and events. Writes nothing.',
    input: z
      .object({
        owner: scopeField,
        now: epochSeconds('now').optional(),
        message: z.string().max(100_000).optional(),
        events: z.array(z.string().min(1, 'event names cannot be empty').max(200)).max(1000).optional(),
      })
      .optional()
      .default({}),
  }),
};
