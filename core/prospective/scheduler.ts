/**
 * The prospective-memory scheduler: given the intents an agent can see, the time and what the agent
 * is looking at, which intents fire. Pure (no store, no clock), so every rule is tested directly.
 */
import type { Memory } from '../model/memory.js';
import { hasFired, readTrigger, type StoredTrigger, type TriggerKind } from './triggers.js';
import type { IntentState } from './views.js';

export type { IntentState } from './views.js';

export interface DueContext {
  /** The agent's current message (cue triggers look for their text here). */
  message?: string | null;
  /** Names of events seen since the last check (event triggers look for theirs). */
  events?: readonly string[] | null;
}

export interface Firing {
  intent: Memory;
  trigger: StoredTrigger;
  kind: TriggerKind;
  /** Why it fired, for the access log and the agent: `time 2024-05-01T09:00:00Z passed`, `cue "deploy"`, `event "Error"`. */
  reason: string;
}

const WORD = /[\p{L}\p{N}]/u;

function normalize(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Whether the cue text appears in the message: case-insensitive, whitespace-collapsed, and on word
 * boundaries, so the cue "cat" fires on "the cat sat" but not on "category".
 */
export function cueAppears(cue: string, message: string): boolean {
  const c = normalize(cue);
  const m = normalize(message);
  if (!c) return false;
  for (let at = m.indexOf(c); at >= 0; at = m.indexOf(c, at + 1)) {
    const before = at > 0 ? m[at - 1]! : '';
    const after = m[at + c.length] ?? '';
    const startOk = !WORD.test(c[0]!) || !WORD.test(before);
    const endOk = !WORD.test(c[c.length - 1]!) || !WORD.test(after);
    if (startOk && endOk) return true;
  }
  return false;
}

function eventSeen(name: string, events: readonly string[]): boolean {
  const n = name.trim().toLowerCase();
  return events.some((e) => typeof e === 'string' && e.trim().toLowerCase() === n);
}

function firingReason(t: StoredTrigger, context: DueContext): string | null {
  switch (t.kind) {
    case 'time':
      return null;
    case 'cue':
      return context.message && cueAppears(t.cue!, context.message) ? `cue ${JSON.stringify(t.cue)} appeared in the message` : null;
    case 'event':
      return context.events && eventSeen(t.cue!, context.events) ? `event ${JSON.stringify(t.cue)} was seen` : null;
  }
}

/**
 * The intents that fire now: live, not fired yet, with a trigger that matches. Time triggers come
 * first (oldest deadline first), then cue and event triggers by importance, oldest first.
 */
export function due(intents: readonly Memory[], now: number, context: DueContext = {}): Firing[] {
  const out: Firing[] = [];
  for (const intent of intents) {
    if (intent.archived) continue;
    const t = readTrigger(intent);
    if (!t || hasFired(t)) continue;
    let reason: string | null;
    if (t.kind === 'time') reason = t.fire_at! <= now ? `time ${new Date(t.fire_at! * 1000).toISOString()} passed` : null;
    else reason = firingReason(t, context);
    if (reason) out.push({ intent, trigger: t, kind: t.kind, reason });
  }
  const order = (f: Firing) => (f.kind === 'time' ? 0 : 1);
  return out.sort(
    (a, b) =>
      order(a) - order(b) ||
      (a.kind === 'time' ? a.trigger.fire_at! - b.trigger.fire_at! : b.intent.importance - a.intent.importance) ||
      a.intent.created_at - b.intent.created_at,
  );
}


/** Pending (will fire), fired (done), or unscheduled (an intent with no usable trigger). */
export function intentState(intent: Pick<Memory, 'type' | 'trigger'>): IntentState {
  const t = readTrigger(intent);
  if (!t) return 'unscheduled';
  return hasFired(t) ? 'fired' : 'pending';
}
