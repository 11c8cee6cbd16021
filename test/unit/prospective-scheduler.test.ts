import { describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../core/model/memory.js';
import { cueAppears, due, intentState } from '../../core/prospective/scheduler.js';
import { normalizeTrigger, readTrigger } from '../../core/prospective/triggers.js';
import { T0 } from '../helpers/agents.js';

function intent(content: string, trigger: Record<string, unknown> | null, extra: Partial<Memory> = {}): Memory {
  return createMemory({ content, type: 'intent', trigger: trigger as Memory['trigger'], created_at: T0 - 100, ...extra }, T0);
}

describe('triggers', () => {
  it('normalizes the three kinds and accepts ISO dates for fire_at', () => {
    expect(normalizeTrigger({ kind: 'time', fire_at: T0 })).toEqual({ kind: 'time', cue: null, fire_at: T0 });
    expect(normalizeTrigger({ kind: 'time', fire_at: '2025-06-15T15:06:40Z' }).fire_at).toBe(Date.parse('2025-06-15T15:06:40Z') / 1000);
    expect(normalizeTrigger({ kind: 'cue', cue: ' deploy ' }, { opensTodo: true })).toEqual({ kind: 'cue', cue: 'deploy', fire_at: null, opens_todo: true });
    expect(normalizeTrigger({ kind: 'event', cue: 'Error' })).toMatchObject({ kind: 'event', cue: 'Error' });
  });

  it('rejects incomplete triggers, naming the missing field', () => {
    expect(() => normalizeTrigger({ kind: 'time' })).toThrowError(/fire_at: a time trigger needs fire_at/);
    expect(() => normalizeTrigger({ kind: 'cue' })).toThrowError(/cue: a cue trigger needs a cue/);
    expect(() => normalizeTrigger({ kind: 'event', cue: '' })).toThrowError(/cue/);
    expect(() => normalizeTrigger({ kind: 'later' } as never)).toThrowError(/kind/);
    expect(() => normalizeTrigger({ kind: 'time', fire_at: 'next tuesday' })).toThrowError(/fire_at/);
  });

  it('reads only usable triggers of intents', () => {
    expect(readTrigger(intent('x', { kind: 'time', fire_at: T0 }))).toMatchObject({ kind: 'time' });
    expect(readTrigger(intent('x', { kind: 'time' }))).toBeNull();
    expect(readTrigger(intent('x', null))).toBeNull();
    expect(readTrigger(createMemory({ content: 'x', trigger: { kind: 'time', fire_at: T0 } }, T0))).toBeNull(); // not an intent
  });
});

describe('cueAppears', () => {
  it('matches case-insensitively on word boundaries, collapsing whitespace', () => {
    expect(cueAppears('deploy', 'Time to DEPLOY the app')).toBe(true);
    expect(cueAppears('release notes', 'write the release\n  notes')).toBe(true);
    expect(cueAppears('cat', 'the category page')).toBe(false);
    expect(cueAppears('cat', 'a cat, then a category')).toBe(true);
    expect(cueAppears('v1.2', 'ship v1.2!')).toBe(true);
    expect(cueAppears('#42', 'see issue#42 now')).toBe(true);
    expect(cueAppears('deploy', '')).toBe(false);
  });
});

describe('due', () => {
  const time = intent('call Bob', { kind: 'time', fire_at: T0 + 60 });
  const cue = intent('mention the budget', { kind: 'cue', cue: 'budget' });
  const event = intent('file a bug report', { kind: 'event', cue: 'Error' });
  const all = [time, cue, event];

  it('time fires once the time has passed, not before', () => {
    expect(due(all, T0)).toEqual([]);
    expect(due(all, T0 + 60).map((f) => f.intent.id)).toEqual([time.id]);
    expect(due(all, T0 + 61)[0]!.reason).toMatch(/^time .* passed$/);
  });

  it('cue fires when the cue appears in the message', () => {
    expect(due(all, T0, { message: 'what is our budget for Q3?' })).toMatchObject([{ kind: 'cue', reason: 'cue "budget" appeared in the message' }]);
    expect(due(all, T0, { message: 'nothing relevant' })).toEqual([]);
  });

  it('event fires when the event name was seen', () => {
    expect(due(all, T0, { events: ['Notification', 'error'] })).toMatchObject([{ kind: 'event', intent: { id: event.id } }]);
    expect(due(all, T0, { events: ['Notification'] })).toEqual([]);
  });

  it('fired, archived and trigger-less intents never fire; time first, then importance', () => {
    const fired = intent('done', { kind: 'cue', cue: 'budget', fired_at: T0 - 5 });
    const archived = intent('gone', { kind: 'cue', cue: 'budget' }, { archived: true });
    const bare = intent('no trigger', null);
    const important = intent('urgent budget', { kind: 'cue', cue: 'budget' }, { importance: 9 });
    const got = due([fired, archived, bare, cue, important, time], T0 + 100, { message: 'budget' });
    expect(got.map((f) => f.intent.content)).toEqual(['call Bob', 'urgent budget', 'mention the budget']);
    expect([fired, bare, cue].map(intentState)).toEqual(['fired', 'unscheduled', 'pending']);
  });
});
