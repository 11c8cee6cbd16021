/**
 * The engine host (core/host/engine-host.ts): the engine off the thread that answers. A short call
 * is answered while another lane's worker is held by long work; a long job's progress and its
 * cancel cross the boundary while the job holds its worker's thread; a switch of store reaches
 * every worker; a call whose caller went away is cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { getPriority } from 'node:os';
import { EngineHost } from '../../core/host/engine-host.js';
import { jobsNiceFromEnv } from '../../core/host/thread-priority.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const HOLD = pathToFileURL(join(import.meta.dirname, '..', 'helpers', 'engine-hold-extension.ts')).href;
const NOW = expected().now;

// One host for the file (its workers take seconds to start from source); each test opens its own copy of the fixture.
let host: EngineHost | null = null;
beforeAll(async () => {
  host = await EngineHost.start({ lanes: { light: 1, index: 1, jobs: 1 }, session: { now: NOW, reader: { owner: 'workbench', session_ref: null } }, extensions: [HOLD] });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

async function started(): Promise<EngineHost> {
  await host!.open(fixtureCopy());
  return host!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the engine host', () => {
  it('answers store.info and the list while the index and jobs workers are held by long work', async () => {
    const h = await started();
    let held = 0;
    const holds = ['index', 'jobs'].map((lane) => h.request(lane as 'index' | 'jobs', 'test.hold', { ms: 4000 }).then(() => (held += 1)));
    await sleep(200);
    const info = await h.invoke('store.info', {});
    const list = await h.invoke('memory.list', { limit: 5 });
    // Both answered while both holds were still under way.
    expect(held).toBe(0);
    expect(info).toMatchObject({ ok: true, value: { counts: { memories: expected().summary.memories } } });
    expect(list).toMatchObject({ ok: true, value: { rows: expect.any(Array) } });
    await Promise.all(holds);
  }, 60_000);

  it("runs a worker's timers between its calls while callers keep its port full (the hand-over's watch is a timer)", async () => {
    const h = await started();
    const ticks = async () => ((await h.request('index', 'test.ticks', {})) as { ok: true; value: number }).value;
    const before = await ticks();
    // Four callers that each call again the moment they are answered, as four agents on one worker do: 60 calls of 10 ms.
    const caller = async () => {
      for (let i = 0; i < 15; i++) await h.request('index', 'test.hold', { ms: 10 });
    };
    await Promise.all([caller(), caller(), caller(), caller()]);
    // About 600 ms of calls: run as read, the 10 ms timer ran once or twice in all that time.
    expect((await ticks()) - before).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it.runIf(process.platform === 'linux')('runs the jobs lane at a lower CPU priority than the lanes people wait on, and leaves the serving thread alone', async () => {
    const h = await started();
    const base = getPriority(0);
    const priorityOf = async (lane: 'light' | 'index' | 'jobs') => ((await h.request(lane, 'test.priority', {})) as { ok: true; value: number }).value;
    expect(await priorityOf('jobs')).toBe(Math.min(19, Math.max(base, jobsNiceFromEnv())));
    expect(await priorityOf('light')).toBe(base);
    expect(await priorityOf('index')).toBe(base);
    expect(getPriority(0)).toBe(base);
  }, 60_000);

  it("reports a job's progress and takes its cancel while the job holds its worker's thread", async () => {
    const h = await started();
    const caller = new AbortController();
    const job = h.request('jobs', 'test.job', { steps: 200, stepMs: 50 }, { signal: caller.signal });
    const seen = new Set<number>();
    for (let i = 0; i < 100 && seen.size < 3; i++) {
      await sleep(100);
      const p = await h.invoke('journal.progress', {});
      expect(p.ok).toBe(true);
      const state = (p as { value: { running: boolean; kind: string; done: number; total: number } }).value;
      if (state.running && state.total > 0) {
        expect(state).toMatchObject({ kind: 'test.job', total: 200 });
        seen.add(state.done);
      }
    }
    // Three different steps reported while the job never let its thread go.
    expect(seen.size).toBeGreaterThanOrEqual(3);
    caller.abort();
    const result = await job;
    expect(result.ok).toBe(true);
    const stopped = (result as { value: { stopped_at: number | null } }).value.stopped_at;
    expect(stopped).not.toBeNull();
    expect(stopped!).toBeLessThan(200);
    // The job's end is reported too.
    await sleep(50);
    expect(await h.invoke('journal.progress', {})).toMatchObject({ ok: true, value: { running: false } });
  }, 60_000);

  it('a call cancelled before its worker reached it starts cancelled', async () => {
    const h = await started();
    const hold = h.request('jobs', 'test.hold', { ms: 1500 });
    const caller = new AbortController();
    const job = h.request('jobs', 'test.job', { steps: 100, stepMs: 10 }, { signal: caller.signal });
    caller.abort();
    await hold;
    expect(await job).toMatchObject({ ok: true, value: { stopped_at: 0 } });
  }, 60_000);

  it('every worker follows a store.open, and a write in one lane is read in another', async () => {
    const h = await started();
    const other = fixtureCopy();
    expect(await h.invoke('store.open', { path: other })).toMatchObject({ ok: true, value: { path: other } });
    expect(h.storePath).toBe(other);
    const added = (await h.invoke('memory.add', { content: 'written in the index lane, read in the light one' })) as { ok: true; value: { id: string } };
    expect(added.ok).toBe(true);
    // memory.get runs in the light lane, store.info too: both see the new store and the write.
    expect(await h.invoke('memory.get', { id: added.value.id })).toMatchObject({ ok: true, value: { memory: { content: 'written in the index lane, read in the light one' } } });
    expect(await h.invoke('store.info', {})).toMatchObject({ ok: true, value: { path: other, counts: { memories: expected().summary.memories + 1 } } });
  }, 60_000);

  it('a worker that dies fails its call with a typed error, and another takes its place on the same store', async () => {
    const h = await started();
    const path = h.storePath;
    const died = await h.request('index', 'test.exit', {});
    expect(died).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/engine worker \(index\) stopped/) } });
    // The index lane answers again, on the store the host had open (calls wait until it is reopened).
    expect(await h.invoke('recall.explain', { query: 'deploy', k: 3 })).toMatchObject({ ok: true });
    expect(await h.invoke('memory.list', { text: 'deploy', limit: 1 })).toMatchObject({ ok: true });
    expect(h.storePath).toBe(path);
  }, 60_000);

  it('invalid input and unknown methods come back as the typed envelope, from the worker', async () => {
    const h = await started();
    expect(await h.invoke('memory.list', { limit: 'lots' })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    // A progress the host answers itself still checks its input first.
    expect(await h.invoke('journal.progress', 'now')).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await h.invoke('no.such', {})).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/unknown method/) } });
    const text = await h.invokeJson('memory.get', { id: 'missing-id' });
    expect(text).toMatchObject({ ok: false, code: 'not_found' });
    expect(JSON.parse(text.json)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  }, 60_000);
});
