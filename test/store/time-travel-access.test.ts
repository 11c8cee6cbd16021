/**
 * The memory detail as of an instant (issue 16): retention.curve and access.list take `at`, so the
 * detail view under ?at= shows the access count, strength, retention and access list of that
 * instant, not the live ones. Accesses logged after the instant (the event table is a log, not
 * rolled back with the rows) are left out; a bad `at` is refused as for memory.get.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Clock } from '../../core/clock.js';
import { freshStorePath } from '../helpers/agents.js';

const T0 = 1_760_000_000;
const DAY = 86_400;

function steppedClock(start: number): Clock & { set(t: number): void } {
  let t = start;
  return { now: () => t, set: (next) => (t = next) };
}

let clock: ReturnType<typeof steppedClock>;
let session: ApiSession;

beforeEach(() => {
  clock = steppedClock(T0);
  session = new ApiSession({ clock });
  // A file, or on PostgreSQL (the postgres project) an empty schema: time travel works on both.
  session.open(freshStorePath(), { create: true });
});
afterEach(() => session.close());

const accesses = (id: string, at?: number) =>
  call(session, 'access.list', { memory_id: id, channels: ['recalled', 'searched', 'injected', 'deref', 'reinforced'], ...(at === undefined ? {} : { at }) });

describe('the memory detail as of an instant', () => {
  it('shows the access count, strength, retention and access list of T for a memory accessed after T', async () => {
    const m = await call(session, 'memory.add', { content: 'the deploy checklist lives in the wiki' });
    clock.set(T0 + DAY);
    await call(session, 'access.reinforce', { id: m.id });
    const T = T0 + 2 * DAY;
    clock.set(T0 + 3 * DAY);
    await call(session, 'access.reinforce', { id: m.id });
    await call(session, 'access.deref', { id: m.id });
    clock.set(T0 + 4 * DAY);

    const then = (await call(session, 'memory.get', { id: m.id, at: T })).memory;
    const now = (await call(session, 'memory.get', { id: m.id })).memory;
    expect(then.access_count).toBeLessThan(now.access_count);
    expect(then.strength).toBeLessThan(now.strength);

    const pastCurve = await call(session, 'retention.curve', { id: m.id, at: T });
    const liveCurve = await call(session, 'retention.curve', { id: m.id });
    expect(pastCurve.now).toBe(T);
    expect(liveCurve.now).toBe(T0 + 4 * DAY);
    expect(pastCurve.markers.filter((k) => k.channel !== 'created').map((k) => k.ts)).toEqual([T0 + DAY]);
    expect(liveCurve.markers.filter((k) => k.channel !== 'created').map((k) => k.ts)).toEqual([T0 + DAY, T0 + 3 * DAY, T0 + 3 * DAY]);
    expect(pastCurve.accesses.touching).toBe(then.access_count);
    expect(pastCurve.strength_steps.at(-1)!.strength).toBe(then.strength);
    // Retention then: one day after the last access of T, at the strength of T.
    const reinforcedOnce = await call(session, 'retention.curve', { id: m.id, at: T0 + DAY });
    expect(pastCurve.retention_now).toBeLessThan(reinforcedOnce.retention_now);
    expect(pastCurve.retention_now).not.toBe(liveCurve.retention_now);

    const pastList = await accesses(m.id, T);
    expect(pastList.total).toBe(1);
    expect(pastList.events.map((e) => e.ts)).toEqual([T0 + DAY]);
    expect((await accesses(m.id)).total).toBe(3);
  });

  it('still replays an access as of then: the replay reads the event it replays, logged after that instant', async () => {
    await call(session, 'memory.add', { content: 'the deploy checklist lives in the wiki' });
    clock.set(T0 + DAY);
    const logged = await call(session, 'recall.run', { query: 'deploy checklist', k: 3 });
    expect(logged.rows.length).toBeGreaterThan(0);
    const event = (await call(session, 'access.list', { channels: ['recalled'], limit: 1 })).events[0]!;
    const then = await call(session, 'access.replay', { event_id: event.event_id!, as_of_then: true });
    expect(then.reproduces_logged_ranking).toBe(true);
  });

  it('refuses a bad instant as memory.get does, and an instant before history with the earliest one', async () => {
    const m = await call(session, 'memory.add', { content: 'x' });
    for (const at of [-1, Number.NaN, 'yesterday']) {
      expect(await invoke(session, 'retention.curve', { id: m.id, at })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      expect(await invoke(session, 'access.list', { memory_id: m.id, at })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    clock.set(T0 + 10);
    await call(session, 'access.deref', { id: m.id });
    expect(await invoke(session, 'retention.curve', { id: m.id, at: T0 - 1 })).toMatchObject({ ok: false, error: { code: 'bad_input', details: { reason: 'before_history' } } });
  });
});
