/**
 * Issue 13 item 7, the API side of a long commit: reflect.apply runs as a write job whose progress
 * (n of N, an ETA) can be read while it runs, a second long write is refused as busy, and a cancel
 * takes back everything applied so far, leaving the store exactly as it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { MnemoError } from '../../core/errors.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planOps } from '../../core/reflect/plan.js';
import { runInProgress } from '../../core/store/shared/run-marker.js';
import { dumpStore, integrityOk } from '../../support/reflect.js';
import { NOW, plannedStore } from '../../support/long-writes.js';

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

/**
 * Batches of a few operations with a short pause after each: the apply runs over many batches however
 * fast the machine is, so its progress can be read while it runs (with the default 200 ms batches an
 * idle machine applied the whole plan in one, and the polls never saw it running).
 */
const SMALL_BATCHES = { maxBatchItems: 25, pauseMs: 5 };

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Polls journal.progress until `until` holds for it. */
async function progressUntil(s: ApiSession, until: (p: WriteJobState) => boolean): Promise<WriteJobState> {
  for (;;) {
    const p = await call(s, 'journal.progress', {});
    if (until(p)) return p;
    await tick();
  }
}

describe('the write job of reflect.apply', () => {
  it('reports n of N while it runs, refuses a second long write, and a cancel leaves the store as it was', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
    session.open(path);
    session.engine().store.ensureMnemo();
    const before = dumpStore(path);
    const total = planOps(plan).length;

    const applying = call(session, 'reflect.apply', { plan });
    const outcome = applying.then(
      () => null,
      (err: unknown) => err,
    );
    const mid = await progressUntil(session, (p) => p.running && p.done > 0);
    expect(mid).toMatchObject({ running: true, kind: 'reflect.apply', total, started_at: NOW, cancellable: true, cancelling: false });
    expect(mid.done).toBeLessThan(total);
    // A second long write on the same store is refused while the first runs.
    await expect(call(session, 'reflect.apply', { plan })).rejects.toMatchObject({ code: 'busy' });

    // Let some batches commit, then cancel.
    await progressUntil(session, (p) => p.done > total / 4);
    expect(runInProgress(session.engine().store)?.mode).toBe('record');
    expect(await call(session, 'journal.cancel', {})).toEqual({ cancelled: true });
    const err = await outcome;
    expect(err).toBeInstanceOf(MnemoError);
    expect((err as MnemoError).details).toMatchObject({ cancelled: true });

    expect(await call(session, 'journal.progress', {})).toMatchObject({ running: false, kind: null });
    expect(await call(session, 'journal.cancel', {})).toEqual({ cancelled: false });
    expect(runInProgress(session.engine().store)).toBeNull();
    expect((await call(session, 'journal.history', {})).filter((c) => c.kind === 'reflect.apply')).toEqual([]);
    session.close();
    session = null;
    expect(integrityOk(path)).toBe(true);
    expect(dumpStore(path)).toEqual(before);
  });

  it('a cancel that comes while the finished rows hand the indexes over is honoured, not accepted and ignored', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
    session.open(path);
    const engine = session.engine();
    engine.store.ensureMnemo();
    const before = dumpStore(path);
    let cancelled = false;
    let handedOver = false;
    // Every row written, the bar still at "N of N" with its Cancel: the user presses it now.
    const beforeFinish = async () => {
      handedOver = true;
      await tick();
      cancelled = true;
    };
    const err = await applyPlan(engine, plan, { shouldCancel: () => cancelled, beforeFinish, pacing: SMALL_BATCHES }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(handedOver).toBe(true);
    expect(err).toBeInstanceOf(MnemoError);
    expect((err as MnemoError).details).toMatchObject({ cancelled: true });
    expect(runInProgress(engine.store)).toBeNull();
    expect((await call(session, 'journal.history', {})).filter((c) => c.kind === 'reflect.apply')).toEqual([]);
    session.close();
    session = null;
    expect(integrityOk(path)).toBe(true);
    expect(dumpStore(path)).toEqual(before);
  });

  it('applies to the end with progress reaching N, and the batched undo takes it back as one step', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
    session.open(path);
    session.engine().store.ensureMnemo();
    const before = dumpStore(path);
    const seen: number[] = [];
    const applying = call(session, 'reflect.apply', { plan });
    let finished = false;
    void applying.finally(() => (finished = true));
    while (!finished) {
      const p = await call(session, 'journal.progress', {});
      if (p.running) seen.push(p.done);
      await tick();
    }
    const res = await applying;
    expect(seen.length).toBeGreaterThan(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    const change = await call(session, 'journal.undo', { change_id: res.change_id! });
    expect(change.state).toBe('undone');
    session.close();
    session = null;
    expect(dumpStore(path)).toEqual(before);
  });
});
