/**
 * An engine on the past builds its derived indexes in memory: the index sidecar beside the store
 * holds the live store's (its text search is patched in place), so a read as of an instant must
 * neither see the present through it nor leave the past in it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { Clock } from '../../core/clock.js';
import { freshStorePath } from '../helpers/agents.js';

const T0 = 1_760_000_000;

let clock: Clock & { set(t: number): void };
let session: ApiSession;

beforeEach(() => {
  let t = T0;
  clock = { now: () => t, set: (next: number) => (t = next) };
  session = new ApiSession({ clock });
  // A file, or on PostgreSQL (the postgres project) an empty schema, where no sidecar is kept: the past's indexes are still its own.
  session.open(freshStorePath(), { create: true });
});
afterEach(() => session.close());

describe('text search as of an instant', () => {
  it('finds the words of then, and live search still finds the words of now', async () => {
    const a = await call(session, 'memory.add', { content: 'the canary deploy needs a flag' });
    // The live text search is built (and kept in the sidecar) before the change.
    expect((await call(session, 'memory.list', { text: 'canary' })).total).toBe(1);
    clock.set(T0 + 10);
    await call(session, 'memory.update', { id: a.id, patch: { content: 'the blue green rollout needs a flag' } });
    clock.set(T0 + 20);
    expect((await call(session, 'memory.list', { text: 'canary', at: T0 + 5 })).total).toBe(1);
    expect((await call(session, 'memory.list', { text: 'rollout', at: T0 + 5 })).total).toBe(0);
    // Now: the past's words are gone and the present's are found, after the past was searched.
    expect((await call(session, 'memory.list', { text: 'canary' })).total).toBe(0);
    expect((await call(session, 'memory.list', { text: 'rollout' })).total).toBe(1);
    // And the past again, after the live index moved on.
    expect((await call(session, 'memory.list', { text: 'rollout', at: T0 + 5 })).total).toBe(0);
  });
});

describe('recall.explain as of an instant', () => {
  it('ranks the store as it was then, at that instant\'s clock', async () => {
    const a = await call(session, 'memory.add', { content: 'the canary deploy needs a feature flag' });
    await call(session, 'memory.add', { content: 'lunch is at noon on fridays' });
    expect((await call(session, 'recall.explain', { query: 'canary deploy' })).rows[0]!.id).toBe(a.id);
    clock.set(T0 + 10);
    await call(session, 'memory.update', { id: a.id, patch: { content: 'the blue green rollout needs a feature flag' } });
    clock.set(T0 + 3600);
    const then = await call(session, 'recall.explain', { query: 'canary deploy', at: T0 + 5 });
    const now = await call(session, 'recall.explain', { query: 'canary deploy' });
    expect(then.rows[0]!.id).toBe(a.id);
    const scoreThen = then.rows.find((r) => r.id === a.id)!.score;
    const scoreNow = now.rows.find((r) => r.id === a.id)?.score ?? 0;
    expect(scoreThen).toBeGreaterThan(scoreNow);
  });
});
