/**
 * The light lane (core/host/lanes.ts) answers the views' frequent reads within a query or two
 * because it never builds a derived index: an index build there would make store.info wait for
 * seconds, which is what the lane exists to prevent. Every method the lane takes is run here on a
 * fresh engine, and no derived index may be read (Derived.get / getReady) on its way.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import { BULK_IDS, CANCELS, laneOf, LIGHT_METHODS } from '../../core/host/lanes.js';
import { Derived } from '../../core/store/derived/derived.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

let db: string;
let ids: string[];
let changeId: number;

beforeAll(async () => {
  db = fixtureCopy();
  // A change in the journal, made on another connection, so the journal reads have one to show.
  const writer = ApiSession.withFrozenClock(expected().now);
  writer.open(db);
  const list = await invoke(writer, 'memory.list', { limit: 3 });
  ids = (list as { ok: true; value: { rows: { id: string }[] } }).value.rows.map((r) => r.id);
  const updated = await invoke(writer, 'memory.update', { id: ids[0], patch: { title: 'a change for the journal reads' } });
  changeId = (updated as { ok: true; value: { change_id: number } }).value.change_id;
  writer.close();
});

/** A representative input of each light method (the list's first page as the workbench asks it). */
const inputs = (): Record<string, unknown[]> => ({
  'store.info': [{}],
  'store.replicas': [{}],
  'memory.get': [{ id: ids[0] }],
  'memory.facets': [{}],
  'memory.mergeOrder': [{ ids: ids.slice(0, 2) }],
  'memory.list': [{ offset: 0, limit: 200 }, { limit: 50, types: ['info'], sort: 'importance', dir: 'desc' }, { limit: 20, owners: ['Planner@a1'], archived: 'all' }],
  'memory.ids': [{}, { types: ['skill'] }],
  'journal.history': [{ limit: 10 }],
  'journal.rows': [{ change_id: changeId }],
  'journal.dependents': [{ change_id: changeId }],
  'overview.facets': [{}],
  'overview.scatter': [{}],
  'overview.maintenance': [{}],
  'stats.basic': [{}],
  'stats.kpis': [{}],
  'stats.usage': [{ ids }],
  'stats.rowsVsReads': [{}],
  'access.list': [{}, { query: 'deploy', limit: 20 }],
  'access.credentials': [{}],
  'feed.status': [{}],
  'profiles.list': [{}],
  'profiles.get': [{ name: 'mnemo' }],
  'profiles.diff': [{ a: 'mnemo', b: 'nooa-0.0.9' }],
  'recall.profile': [{}],
  'reflect.endpoints': [{}],
  'retention.curve': [{ id: ids[0] }],
  'intents.list': [{}],
  'todos.list': [{}],
  'lab.knobs': [{}],
  'lab.queries': [{}],
});

describe('the light lane', () => {
  let session: ApiSession;
  const read = vi.spyOn(Derived.prototype, 'get');
  const ready = vi.spyOn(Derived.prototype, 'getReady');
  beforeAll(() => {
    session = ApiSession.withFrozenClock(expected().now);
    session.open(db);
  });
  afterAll(() => session.close());

  it('has an input here for every method it takes, and takes each of them', () => {
    expect(Object.keys(inputs()).sort()).toEqual([...LIGHT_METHODS].sort());
    for (const [method, samples] of Object.entries(inputs())) for (const input of samples) expect(laneOf(method, input), method).toBe('light');
  });

  it('answers every one of them without reading a derived index', async () => {
    for (const [method, samples] of Object.entries(inputs())) {
      for (const input of samples) {
        read.mockClear();
        ready.mockClear();
        const r = await invoke(session, method, input);
        expect(r.ok, `${method} ${JSON.stringify(input)}: ${JSON.stringify(r)}`).toBe(true);
        expect(read.mock.calls.length + ready.mock.calls.length, `${method} ${JSON.stringify(input)} read a derived index`).toBe(0);
      }
    }
    // The spies see a read when there is one: an explain ranks over the indexes.
    expect((await invoke(session, 'recall.explain', { query: 'deploy', k: 3 })).ok).toBe(true);
    expect(read.mock.calls.length + ready.mock.calls.length).toBeGreaterThan(0);
  });

  it('sends text search, other instants, long work and bulk changes elsewhere', () => {
    expect(laneOf('memory.list', { text: 'deploy', limit: 20 })).toBe('index');
    expect(laneOf('memory.list', { limit: 20, at: 1_700_000_000 })).toBe('index');
    expect(laneOf('store.info', { at: 1 })).toBe('index');
    expect(laneOf('recall.explain', { query: 'x' })).toBe('index');
    expect(laneOf('memory.update', { id: 'x', patch: {} })).toBe('index');
    for (const m of ['reflect.plan', 'review.plan', 'review.commit', 'reflect.apply', 'journal.undo', 'journal.redo', 'lab.fit', 'beliefs.ingest', 'memory.erasePlan', 'memory.erase']) expect(laneOf(m, {}), m).toBe('jobs');
    // An erasure reports through journal.progress, which the host answers from the jobs worker, and journal.cancel reaches it.
    expect(CANCELS['journal.cancel']!.calls).toContain('memory.erase');
    const many = Array.from({ length: BULK_IDS + 1 }, (_, i) => `m${i}`);
    expect(laneOf('memory.archive', { ids: many })).toBe('jobs');
    expect(laneOf('memory.archive', { ids: many.slice(0, 10) })).toBe('index');
  });
});
