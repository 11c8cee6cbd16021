/**
 * Access channels: what each read writes (ring + event table in one go), what it changes
 * (recalled/searched/deref/reinforced touch; injected never does), counters that survive ring
 * rotation, and the OpenTelemetry trace_ref / span events.
 */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { context, trace, ROOT_CONTEXT, type Context, type ContextManager, type Span } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { baseLevelActivation } from '../../core/model/activation.js';
import { explain } from '../../core/recall/explain.js';
import { recallAndLog } from '../../core/recall/record.js';
import { movableClock, newEngine, put } from '../helpers/recall-store.js';
import { accessEventCount } from '../../core/store/queries/access-log.js';

const reader = { owner: 'Planner@a1', session_ref: 'sess-1' };
let engine: Engine;
afterEach(() => engine?.close());

describe('recall, search and injection', () => {
  it('recall logs one touching `recalled` record per returned memory, with nooa fields and the event row', () => {
    const clock = movableClock();
    engine = newEngine({ clock });
    const a = put(engine, { content: 'deploy billing to staging with make deploy', tags: ['deploy'] });
    put(engine, { content: 'the cafeteria menu changed on monday' });
    clock.advance(100);
    const long = `deploy billing ${'x'.repeat(300)}`;
    const res = recallAndLog(engine, { query: long, k: 1 }, 'recalled', reader);
    expect(res.rows.map((r) => r.id)).toEqual([a.id]);
    const m = engine.store.get(a.id)!;
    const rec = m.access_log.at(-1)!;
    expect(rec).toMatchObject({ ts: clock.now(), channel: 'recalled', reader_owner: 'Planner@a1', session_ref: 'sess-1', trace_ref: null, rank: 0, score: res.rows[0]!.score });
    expect([...rec.query!].length).toBe(200);
    expect(rec.components).toEqual({ source: res.rows[0]!.source, cos: res.rows[0]!.cos, rel: res.rows[0]!.rel, rec: res.rows[0]!.rec, imp: res.rows[0]!.imp, spread: res.rows[0]!.spread });
    expect(m.strength).toBe(2);
    expect(m.last_accessed_at).toBe(clock.now());
    expect(m.recalled_count).toBe(1);
    const ev = engine.store.accessEvents({ memoryId: a.id, channels: ['recalled'] }).events;
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ channel: 'recalled', reader_owner: 'Planner@a1', strength_after: 2, rank: 0, context: { hops: 1, owner: null, k: 1, profile: 'mnemo' } });
  });

  it('search runs without spread and logs `searched`', () => {
    engine = newEngine();
    const b = put(engine, { content: 'unrelated words only' });
    const a = put(engine, { content: 'deploy billing', edges: [{ target_id: b.id, type: 'causes', weight: 1, created_at: 0 }] });
    const res = recallAndLog(engine, { query: 'deploy billing', k: 5, hops: 3 }, 'searched', reader);
    expect(res.hops).toBe(0);
    expect(res.rows.every((r) => r.spread === 0)).toBe(true);
    expect(engine.store.get(a.id)!.access_log.at(-1)!.channel).toBe('searched');
    expect(engine.store.get(a.id)!.searched_count).toBe(1);
  });

  it('an injected access never changes strength, last_accessed_at or base-level activation', () => {
    const clock = movableClock();
    engine = newEngine({ clock });
    const a = put(engine, { content: 'deploy billing to staging' });
    put(engine, { content: 'a note about lunch' });
    clock.advance(50);
    recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'recalled', reader);
    const before = engine.store.get(a.id)!;
    const activationBefore = baseLevelActivation(before.access_log, clock.now());
    const recBefore = explain(engine, { query: 'deploy billing', k: 5 }).rows.find((r) => r.id === a.id)!.rec;
    for (let i = 0; i < 40; i++) recallAndLog(engine, { query: 'deploy billing', k: 5 }, 'injected', reader);
    const after = engine.store.get(a.id)!;
    expect(after.injected_count).toBe(40);
    expect(after.access_log).toHaveLength(before.access_log.length + 40);
    expect(after.strength).toBe(before.strength);
    expect(after.last_accessed_at).toBe(before.last_accessed_at);
    expect(after.access_count).toBe(before.access_count);
    expect(baseLevelActivation(after.access_log, clock.now())).toBe(activationBefore);
    expect(explain(engine, { query: 'deploy billing', k: 5 }).rows.find((r) => r.id === a.id)!.rec).toBe(recBefore);
  });

  it('counters survive ring rotation and the event table holds every access', async () => {
    const clock = movableClock();
    engine = newEngine({ clock });
    const a = await addMemory(engine, { content: 'deploy billing to staging' });
    for (let i = 0; i < 100; i++) {
      clock.advance(1);
      recallAndLog(engine, { query: 'deploy billing', k: 1 }, i % 2 ? 'recalled' : 'searched', reader);
    }
    const m = engine.store.get(a.id)!;
    expect(m.access_log).toHaveLength(64);
    expect(m.recalled_count).toBe(50);
    expect(m.searched_count).toBe(50);
    expect(m.access_count).toBe(100);
    expect(m.strength).toBe(101);
    const events = engine.store.accessEvents({ memoryId: a.id, limit: 1000 });
    expect(events.events.filter((e) => e.channel === 'recalled')).toHaveLength(50);
    expect(events.events.filter((e) => e.channel === 'searched')).toHaveLength(50);
    expect(events.events.filter((e) => e.channel === 'created')).toHaveLength(1); // the seed, logged when the memory was added
    expect(events.total).toBe(101);
  });

  it('deref and reinforce are touching; reinforce without bump keeps strength', async () => {
    const clock = movableClock();
    engine = newEngine({ clock });
    const a = await addMemory(engine, { content: 'deploy billing' });
    const session = new ApiSession({ clock, reader });
    session.adopt(engine);
    clock.advance(10);
    const d = await call(session, 'access.deref', { id: a.id.slice(0, 8) });
    expect(d.memory).toMatchObject({ deref_count: 1, strength: 2, last_accessed_at: clock.now() });
    clock.advance(10);
    const r = await call(session, 'access.reinforce', { id: a.id, bump: false });
    expect(r.memory).toMatchObject({ reinforced_count: 1, reinforcement_count: 1, strength: 2, last_accessed_at: clock.now(), access_count: 2 });
    expect(accessEventCount(engine.store)).toBe(3); // created + deref + reinforced
  });

  it('recall.run through the API logs the session reader; explain writes nothing', async () => {
    engine = newEngine();
    put(engine, { content: 'deploy billing' });
    const session = new ApiSession({ reader: { owner: 'Coder@c3', session_ref: 's-9' } });
    session.adopt(engine);
    const eventsBefore = accessEventCount(engine.store);
    const dataVersion = connectionOf(engine.store).prepare('SELECT total_changes() AS n').get();
    await call(session, 'recall.explain', { query: 'deploy billing' });
    expect(connectionOf(engine.store).prepare('SELECT total_changes() AS n').get()).toEqual(dataVersion);
    const res = await call(session, 'recall.run', { query: 'deploy billing' });
    expect(res.logged).toBe(1);
    expect(accessEventCount(engine.store)).toBe(eventsBefore + 1);
    const list = await call(session, 'access.list', { channels: ['recalled'] });
    expect(list.events[0]).toMatchObject({ reader_owner: 'Coder@c3', session_ref: 's-9', query: 'deploy billing', cross_owner: false });
  });
});

/** A synchronous context manager and a recording span: enough of an SDK to observe the bridge. */
class StackContextManager implements ContextManager {
  private stack: Context[] = [ROOT_CONTEXT];
  active(): Context {
    return this.stack[this.stack.length - 1]!;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    this.stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.stack = [ROOT_CONTEXT];
    return this;
  }
}

function recordingSpan(spanId: string) {
  const events: { name: string; attributes: Record<string, unknown> }[] = [];
  const span = {
    spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId, traceFlags: 1 }),
    isRecording: () => true,
    addEvent: (name: string, attributes: Record<string, unknown>) => {
      events.push({ name, attributes });
      return span;
    },
  } as unknown as Span;
  return { span, events };
}

describe('OpenTelemetry bridge', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new StackContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it('is a no-op without an active span', () => {
    engine = newEngine();
    const a = put(engine, { content: 'deploy billing' });
    recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'recalled', reader);
    expect(engine.store.get(a.id)!.access_log.at(-1)!.trace_ref).toBeNull();
  });

  it('stamps trace_ref with the active span id and emits memory.recalled / memory.injected', () => {
    engine = newEngine();
    const a = put(engine, { content: 'deploy billing' });
    const { span, events } = recordingSpan('b7ad6b7169203331');
    context.with(trace.setSpan(context.active(), span), () => {
      recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'recalled', reader);
      recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'injected', reader);
    });
    const log = engine.store.get(a.id)!.access_log;
    expect(log.at(-2)!.trace_ref).toBe('b7ad6b7169203331');
    expect(engine.store.accessEvents({ memoryId: a.id, channels: ['recalled'] }).events[0]!.trace_ref).toBe('b7ad6b7169203331');
    expect(events.map((e) => e.name)).toEqual(['memory.recalled', 'memory.injected']);
    expect(events[0]!.attributes).toMatchObject({ 'memory.owner': 'Planner@a1', 'memory.n_results': 1, 'memory.hops': 1, 'memory.channel': 'recalled', 'memory.memory_ids': [a.id] });
    expect(String(events[0]!.attributes['memory.db_path'])).toBe(engine.store.path);
    expect(events[1]!.attributes).toMatchObject({ 'memory.n_memories': 1, 'memory.memory_ids': [a.id] });
  });
});
