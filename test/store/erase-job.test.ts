/**
 * An erase is the store's long write, as a reflection apply is (api/handlers/shared/erase-job.ts):
 * its progress can be read while it runs (phase, n of N), a second long write is refused as busy,
 * a cancel is honoured while it is still planning (nothing erased) and refused past its first write
 * (it runs to its end), and it is paced in short transactions, so an agent process adding and
 * recalling beside it is answered throughout and other calls of the same process are served.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import type { EraseReceipt } from '../../core/erase/erase.js';
import { MnemoError } from '../../core/errors.js';
import { NOW, plannedStore, startAgent } from '../../support/long-writes.js';

let session: ApiSession | null = null;
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  session?.close();
  session = null;
  for (const s of stops.splice(0)) await s();
});

/** Small batches with a pause after each: the erase runs over many batches however fast the machine is. */
const SMALL_BATCHES = { maxBatchItems: 2, pauseMs: 20 };
const tick = () => new Promise((r) => setTimeout(r, 2));

async function progressUntil(s: ApiSession, until: (p: WriteJobState) => boolean): Promise<WriteJobState> {
  for (;;) {
    const p = await call(s, 'journal.progress', {});
    if (until(p)) return p;
    await tick();
  }
}

const OWNER = 'Planner@a1';

describe('the write job of memory.erase', () => {
  it('reports its phase and n of N, refuses a second long write and a late cancel, and serves other calls meanwhile', { timeout: 180_000 }, async () => {
    const { path } = await plannedStore(2000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
    session.open(path);
    const ownedRows = async () => (await call(session!, 'memory.list', { owner: OWNER, archived: 'all', limit: 5000 })).rows.filter((r) => r.owner === OWNER);
    const total = async () => (await call(session!, 'memory.list', { archived: 'all', limit: 1 })).total;
    const owned = (await ownedRows()).length;
    const before = await total();
    expect(owned).toBeGreaterThan(100);
    const erasing = call(session, 'memory.erase', { owner: OWNER });
    const mid = await progressUntil(session, (p) => p.running && p.phase === 'erasing' && p.done > 0);
    expect(mid).toMatchObject({ kind: 'memory.erase', cancellable: false, started_at: NOW });
    expect(mid.total).toBeGreaterThanOrEqual(owned);
    await expect(call(session, 'memory.erase', { owner: 'Coder@c3' })).rejects.toMatchObject({ code: 'busy' });
    expect(await call(session, 'journal.cancel', {})).toEqual({ cancelled: false });
    // Other calls are answered between its batches.
    const seen = await call(session, 'memory.list', { owner: 'Coder@c3', limit: 1 });
    expect(seen.total).toBeGreaterThan(0);
    const still = await call(session, 'journal.progress', {});
    expect(still.running).toBe(true);
    const receipt = (await erasing) as EraseReceipt;
    expect(receipt.memories.total).toBeGreaterThanOrEqual(owned);
    expect(receipt.counts.memories).toBe(owned);
    expect(await ownedRows()).toEqual([]);
    expect(await total()).toBe(before - owned);
    expect(await call(session, 'journal.progress', {})).toMatchObject({ running: false });
  });

  it('a cancel while it plans erases nothing', { timeout: 120_000 }, async () => {
    const { path } = await plannedStore(2000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
    session.open(path);
    const before = (await call(session, 'memory.list', { archived: 'all', limit: 1 })).total;
    const erasing = call(session, 'memory.erase', { owner: OWNER }).then(
      () => null,
      (err: unknown) => err,
    );
    await progressUntil(session, (p) => p.running && p.phase === 'planning');
    expect(await call(session, 'journal.cancel', {})).toEqual({ cancelled: true });
    const err = await erasing;
    expect(err).toBeInstanceOf(MnemoError);
    expect((err as MnemoError).details).toMatchObject({ cancelled: true });
    expect((await call(session, 'memory.list', { archived: 'all', limit: 1 })).total).toBe(before);
    expect((await call(session, 'journal.history', {})).filter((c) => c.kind === 'erase')).toEqual([]);
  });

  it('an agent process adding and recalling beside it is never refused', { timeout: 180_000 }, async () => {
    const { path } = await plannedStore(2000);
    const agent = startAgent(path, 30, 1000);
    stops.push(agent.stop);
    await agent.ready;
    session = ApiSession.withFrozenClock(NOW, { runPacing: { maxBatchItems: 5 } });
    session.open(path);
    agent.go();
    const receipt = (await call(session, 'memory.erase', { owner: OWNER })) as EraseReceipt;
    const summary = await agent.stop();
    stops.length = 0;
    expect(receipt.counts.memories).toBeGreaterThan(0);
    expect(summary.calls).toBeGreaterThan(0);
    expect(agent.calls.filter((c) => !c.ok)).toEqual([]);
  });
});
