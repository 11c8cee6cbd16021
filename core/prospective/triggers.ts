/**
 * Intent triggers: `{kind, cue, fire_at}` on an intent memory's `trigger` field (nooa defines the
 * field and never acts on it). Three kinds:
 * - `time`: fires once `fire_at` (epoch seconds) has passed;
 * - `cue`: fires when the cue text appears in the agent's current message;
 * - `event`: fires when an event with the cue's name was seen.
 *
 * Firing state is kept in the same dict (`fired_at`, `fired_reason`, …): nooa stores `trigger` as
 * an open dict, so a nooa reader keeps these keys untouched, and an exported record carries them.
 */
import { z } from 'zod';
import { badInput } from '../errors.js';
import type { IntentTrigger, Memory } from '../model/memory.js';
import { describeIssues } from '../model/schemas.js';
import { isEpochSeconds } from '../model/limits.js';

export const TRIGGER_KINDS = ['time', 'cue', 'event'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

const FIRE_AT_RANGE = 'must be epoch seconds (or an ISO-8601 date-time) between 1970 and 9999';

/** Epoch seconds, or an ISO-8601 date-time (agents often speak dates); either way within 1970..9999. */
export const fireAtInput = z
  .union([
    z.number().refine(Number.isFinite, 'must be a finite number of epoch seconds'),
    z
      .string()
      .max(100)
      .refine((s) => !Number.isNaN(Date.parse(s)), 'must be epoch seconds or an ISO-8601 date-time')
      .transform((s) => Date.parse(s) / 1000),
  ])
  .refine(isEpochSeconds, FIRE_AT_RANGE);

export const triggerSpecInput = z
  .object({
    kind: z.enum(TRIGGER_KINDS),
    cue: z.string().trim().min(1, 'cue cannot be empty').max(500).nullable().optional(),
    fire_at: fireAtInput.nullable().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.kind === 'time' && (t.fire_at === undefined || t.fire_at === null)) {
      ctx.addIssue({ code: 'custom', path: ['fire_at'], message: 'a time trigger needs fire_at (epoch seconds or ISO-8601)' });
    }
    if ((t.kind === 'cue' || t.kind === 'event') && !t.cue) {
      ctx.addIssue({ code: 'custom', path: ['cue'], message: `a ${t.kind} trigger needs a cue (${t.kind === 'cue' ? 'the text to watch for' : 'the event name'})` });
    }
  });

export type TriggerSpecInput = z.input<typeof triggerSpecInput>;

/** The stored trigger plus mnemo's firing state. */
export interface StoredTrigger extends IntentTrigger {
  kind: TriggerKind;
  cue: string | null;
  fire_at: number | null;
  /** Open a todo with the intent's content when it fires. */
  opens_todo?: boolean;
  fired_at?: number | null;
  fired_reason?: string | null;
  fired_by?: string | null;
  fired_session?: string | null;
  todo_id?: string | null;
}

export function normalizeTrigger(input: TriggerSpecInput, opts: { opensTodo?: boolean } = {}): StoredTrigger {
  const parsed = triggerSpecInput.safeParse(input);
  if (!parsed.success) throw badInput(`invalid trigger: ${describeIssues(parsed.error)}`, { field: 'trigger' });
  const t = parsed.data;
  const out: StoredTrigger = { kind: t.kind, cue: t.cue ?? null, fire_at: t.fire_at ?? null };
  if (opts.opensTodo) out.opens_todo = true;
  return out;
}

/** The trigger of an intent when it is one this scheduler understands, else null. */
export function readTrigger(m: Pick<Memory, 'type' | 'trigger'>): StoredTrigger | null {
  if (m.type !== 'intent' || !m.trigger) return null;
  const t = m.trigger;
  if (!(TRIGGER_KINDS as readonly unknown[]).includes(t.kind)) return null;
  // Another writer may have stored any number: a time outside 1970..9999 is unusable, not fatal.
  const fireAt = isEpochSeconds(t.fire_at) ? t.fire_at : null;
  const cue = typeof t.cue === 'string' && t.cue.trim() ? t.cue : null;
  if (t.kind === 'time' && fireAt === null) return null;
  if ((t.kind === 'cue' || t.kind === 'event') && cue === null) return null;
  return { ...t, kind: t.kind as TriggerKind, cue, fire_at: fireAt };
}

/** Why an intent's trigger is unusable, when it looks like one but cannot be scheduled (for a store warning). */
export function triggerProblem(m: Pick<Memory, 'id' | 'type' | 'trigger'>): string | null {
  if (m.type !== 'intent' || !m.trigger) return null;
  const t = m.trigger;
  if (t.kind === 'time' && t.fire_at !== undefined && t.fire_at !== null && !isEpochSeconds(t.fire_at)) {
    return `intent ${m.id}: trigger fire_at ${String(t.fire_at)} is not epoch seconds between 1970 and 9999; the intent is skipped (unscheduled)`;
  }
  return null;
}

/** When a trigger waits for, in words; never throws (every time it reads passed readTrigger's range check). */
export function describeTrigger(t: Pick<StoredTrigger, 'kind' | 'cue' | 'fire_at'>): string {
  if (t.kind === 'time') return isEpochSeconds(t.fire_at) ? `time ${new Date(t.fire_at * 1000).toISOString()}` : 'time (unusable)';
  return `${t.kind} ${JSON.stringify(t.cue)}`;
}

export function hasFired(t: StoredTrigger): boolean {
  return typeof t.fired_at === 'number';
}
