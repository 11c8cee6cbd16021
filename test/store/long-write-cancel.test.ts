/**
 * Issue 37, long jobs that tell the truth: a commit's progress counts the items it will apply (a
 * commit of 10 % of a plan counts that 10 %, not the plan), and a cancelled commit, undo, redo or
 * undo-with-dependents leaves the store byte for byte as it was: every row of every table, rowids
 * included, compared in a dump (test/helpers/store-dump.ts).
 *
 * One table is left out of the comparison on purpose: the change feed (`mnemo_feed`, and its
 * counter in `sqlite_sequence`). It is the log other processes follow to keep their indexes in
 * step; they may have read the rows the job wrote before the cancel, so the take-back is logged
 * after them rather than erased (a process that saw the writes must see them taken back). The
 * tests check instead that every row the job added to it names the job's change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { MnemoError } from '../../core/errors.js';
import { planOps } from '../../core/reflect/plan.js';
import { undoInBatches } from '../../core/store/shared/change-run.js';
import { runInProgress } from '../../core/store/shared/run-marker.js';
import { writeJobOf } from '../../core/api/handlers/shared/write-job.js';
import { onJobNews } from '../../core/engine/job-signals.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { openAt } from '../../support/reflect.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';
import { dumpStore, type StoreDump } from '../helpers/store-dump.js';

/** Batches of a few items with a short pause: every job runs over many batches however fast the machine. */
const SMALL_BATCHES = { maxBatchItems: 25, pauseMs: 5 };
const tick = () => new Promise((r) => setTimeout(r, 5));

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

function open(path: string, runPacing = SMALL_BATCHES): ApiSession {
  session = ApiSession.withFrozenClock(NOW, { runPacing });
  session.open(path);
  session.engine().store.ensureMnemo();
  return session;
}

function closeSession(): void {
  session?.close();
  session = null;
}

/** Every table but the change feed's log (see the header). */
function dumpWithoutFeed(path: string): StoreDump {
  const { mnemo_feed: _feed, sqlite_sequence: seq, ...rest } = dumpStore(path);
  return { ...rest, sqlite_sequence: (seq as { name: string }[]).filter((r) => r.name !== 'mnemo_feed') };
}

function withoutEdgeRowids(dump: StoreDump): StoreDump {
  const edges = (dump['memory_edges'] as Record<string, unknown>[]).map(({ '(rowid)': _rowid, ...e }) => e);
  const key = (e: Record<string, unknown>) => `${e['src']}\u0000${e['dst']}\u0000${e['type']}`;
  return { ...dump, memory_edges: edges.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

function feedSeq(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT coalesce(max(seq), 0) AS n FROM sqlite_sequence WHERE name = 'mnemo_feed'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The rows the pre-apply check reads: every memory and every edge. */
function memoriesAndEdges(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const n = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return n('memories') + n('memory_edges');
  } finally {
    db.close();
  }
}

/** The change ids the feed rows after `seq` name. */
function feedChangeIdsAfter(path: string, seq: number): (number | null)[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT DISTINCT change_id FROM mnemo_feed WHERE seq > ? ORDER BY change_id').all(seq) as { change_id: number | null }[]).map((r) => r.change_id);
  } finally {
    db.close();
  }
}

/** Starts `method`, cancels it once `when` holds for its progress, and returns what it threw and every progress seen. */
async function cancelWhen(s: ApiSession, method: 'review.commit' | 'journal.undo' | 'journal.redo' | 'reflect.apply', input: unknown, when: (p: WriteJobState) => boolean) {
  const seen: WriteJobState[] = [];
  let finished = false;
  const outcome = call(s, method, input).then(
    () => null,
    (err: unknown) => err,
  );
  void outcome.finally(() => (finished = true));
  for (;;) {
    const p = await call(s, 'journal.progress', {});
    seen.push(p);
    if (p.running && when(p)) break;
    if (finished) throw new Error(`${method} ended before the point to cancel at; its progress said ${JSON.stringify(seen.slice(-3))}`);
    await tick();
  }
  expect(await call(s, 'journal.cancel', {})).toEqual({ cancelled: true });
  // Seen at once: the next answer says cancelling, and withdraws the interrupted phase's ETA.
  const right = await call(s, 'journal.progress', {});
  seen.push(right);
  expect(right).toMatchObject({ running: true, cancelling: true });
  if (right.phase !== 'take-back') expect(right.eta_s).toBeNull();
  while (!finished) {
    seen.push(await call(s, 'journal.progress', {}));
    await tick();
  }
  const err = await outcome;
  expect(err).toBeInstanceOf(MnemoError);
  expect((err as MnemoError).details).toMatchObject({ cancelled: true });
  expect(await call(s, 'journal.progress', {})).toMatchObject({ running: false });
  expect(runInProgress(s.engine().store)).toBeNull();
  return { err: err as MnemoError, seen };
}

describe('a long write reports the work it will do', () => {
  it('a commit of 10 % of a plan\'s items counts those items, not the plan', { timeout: 120_000 }, async () => {
    const { path } = await plannedStore(1000);
    // Batches of two items: the tenth of the links is still many batches, so the polls see it run.
    const s = open(path, { maxBatchItems: 2, pauseMs: 5 });
    const summary = await call(s, 'review.plan', {});
    const ids = (await call(s, 'review.items', { plan_id: summary.id, op: 'link', offset: 0, limit: 1000 })).items.map((i) => i.op.id);
    const chosen = ids.filter((_, i) => i % 10 === 0);
    const actions = [...summary.groups.map((g) => ({ do: 'reject' as const, group: g.op })), { do: 'accept' as const, ids: chosen }];
    const counts = await call(s, 'review.counts', { plan_id: summary.id, actions });
    expect(counts.accepted).toBe(chosen.length);
    expect(counts.accepted).toBeLessThan(summary.items / 5);

    const rowsBefore = memoriesAndEdges(path);
    const seen: WriteJobState[] = [];
    // Every state the job reports, heard as it reports it (a host's worker hears the same news): the
    // check before the apply reads the store in a few pages, sooner over than the polls below can see.
    const reported: WriteJobState[] = [];
    const job = writeJobOf(s.engine());
    onJobNews(() => reported.push(job.progress()));
    const committing = call(s, 'review.commit', { plan_id: summary.id, actions });
    let finished = false;
    void committing.finally(() => (finished = true));
    try {
      while (!finished) {
        seen.push(await call(s, 'journal.progress', {}));
        await tick();
      }
    } finally {
      onJobNews(null);
    }
    const res = await committing;
    const applying = seen.filter((p) => p.running && p.phase === 'apply');
    expect(applying.length).toBeGreaterThan(1);
    // Every answer of the apply phase counts the accepted items, and only them.
    for (const p of applying) expect(p).toMatchObject({ total: res.accepted, unit: 'items', phase_label: 'applying the accepted items' });
    const done = applying.map((p) => p.done);
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(Math.max(...done)).toBeLessThanOrEqual(res.accepted);
    // The check before it counts the store's rows (memories and edges), whether a poll or the news tells it.
    const checking = [...reported, ...seen].filter((p) => p.running && p.phase === 'check');
    expect(Math.max(...reported.filter((p) => p.phase === 'check').map((p) => p.done))).toBe(rowsBefore);
    for (const p of checking) expect(p).toMatchObject({ unit: 'rows', total: rowsBefore });
    expect(rowsBefore).toBeGreaterThan(1000);
    // The news told the apply phase as the polls did: the accepted items, never the plan's.
    for (const p of reported.filter((r) => r.phase === 'apply')) expect(p.total).toBe(res.accepted);
    expect(res.applied.length + res.skipped.length).toBe(res.accepted);
  });
});

describe('a cancelled long write leaves the store as it was', () => {
  it('a cancelled commit', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const s = open(path);
    closeSession();
    const before = dumpWithoutFeed(path);
    const seq = feedSeq(path);
    const s2 = open(path);
    const total = planOps(plan).length;
    const { seen } = await cancelWhen(s2, 'reflect.apply', { plan }, (p) => p.phase === 'apply' && p.done > total / 3);
    // What it wrote was taken back as a phase of its own, counted in journal rows.
    const takeBack = seen.filter((p) => p.phase === 'take-back');
    expect(takeBack.length).toBeGreaterThan(0);
    expect(takeBack.every((p) => p.cancelling && p.unit === 'rows' && p.phase_label === 'taking back what was written')).toBe(true);
    expect((await call(s2, 'journal.history', {})).filter((c) => c.kind === 'reflect.apply')).toEqual([]);
    closeSession();
    void s;
    expect(dumpWithoutFeed(path)).toEqual(before);
    // The feed logs the writes and their take-back, all under the one change the commit was.
    expect(feedChangeIdsAfter(path, seq)).toHaveLength(1);
  });

  it('a cancelled undo, then a cancelled redo, each leave the store and the change as they were', { timeout: 180_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    let s = open(path);
    const applied = await call(s, 'reflect.apply', { plan });
    const changeId = applied.change_id!;
    closeSession();
    const afterApply = dumpWithoutFeed(path);
    let seq = feedSeq(path);

    s = open(path);
    const rows = (await call(s, 'journal.rows', { change_id: changeId })).rows.length;
    const undo = await cancelWhen(s, 'journal.undo', { change_id: changeId }, (p) => p.phase === 'undo' && p.done > rows / 3);
    // The undo counted the change's rows; the take-back the rows it had undone.
    expect(undo.seen.filter((p) => p.phase === 'undo').every((p) => p.total === rows && p.unit === 'rows')).toBe(true);
    const undone = Math.max(...undo.seen.filter((p) => p.phase === 'undo').map((p) => p.done));
    const back = undo.seen.filter((p) => p.phase === 'take-back');
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((p) => p.total >= undone)).toBe(true);
    expect((await call(s, 'journal.history', {})).find((c) => c.id === changeId)?.state).toBe('applied');
    closeSession();
    expect(dumpWithoutFeed(path)).toEqual(afterApply);
    expect(feedChangeIdsAfter(path, seq)).toEqual([changeId]);

    // Undo it for real, then cancel its redo part-way.
    s = open(path);
    await call(s, 'journal.undo', { change_id: changeId });
    closeSession();
    const afterUndo = dumpWithoutFeed(path);
    seq = feedSeq(path);
    s = open(path);
    await cancelWhen(s, 'journal.redo', { change_id: changeId }, (p) => p.phase === 'redo' && p.done > rows / 2);
    expect((await call(s, 'journal.history', {})).find((c) => c.id === changeId)?.state).toBe('undone');
    closeSession();
    expect(dumpWithoutFeed(path)).toEqual(afterUndo);
    expect(feedChangeIdsAfter(path, seq)).toEqual([changeId]);
  });

  it('a cancelled undo with the changes that depend on it', { timeout: 180_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    let s = open(path);
    const first = (await call(s, 'reflect.apply', { plan })).change_id!;
    // A later change to a row the apply wrote: it depends on the apply.
    const touched = (await call(s, 'journal.rows', { change_id: first })).rows.find((r) => r.key.startsWith('m:') && r.after !== null)!.key.slice(2);
    await call(s, 'memory.update', { id: touched, patch: { importance: 9 } });
    const later = (await call(s, 'journal.history', {}))[0]!.id;
    expect((await call(s, 'journal.dependents', { change_id: first })).dependents.map((c) => c.id)).toEqual([later]);
    closeSession();
    const before = dumpWithoutFeed(path);

    s = open(path);
    const rows = (await call(s, 'journal.dependents', { change_id: first })).rows;
    // Cancelled once the later change is undone and the apply part-way: both must come back.
    await cancelWhen(s, 'journal.undo', { change_id: first, with_dependents: true }, (p) => p.phase === 'undo' && p.done > rows / 2);
    const states = (await call(s, 'journal.history', {})).filter((c) => c.id === first || c.id === later).map((c) => c.state);
    expect(states).toEqual(['applied', 'applied']);
    closeSession();
    expect(dumpWithoutFeed(path)).toEqual(before);
  });

  it('a take-back cut short by a crash is finished by the next open, in the same direction', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const s = open(path);
    const changeId = (await call(s, 'reflect.apply', { plan })).change_id!;
    closeSession();
    const afterApply = dumpWithoutFeed(path);

    const engine = openAt(path, NOW);
    const store = sqliteAdapterOf(engine);
    const total = store.journal.get(changeId).rows;
    let cancel = false;
    const crash = new Error('the process died here');
    const err = await undoInBatches(
      store,
      changeId,
      SMALL_BATCHES,
      (done, _total, phase) => {
        if (phase === 'undo' && done > total / 2) cancel = true;
        if (phase === 'take-back' && done > 0) throw crash;
      },
      undefined,
      () => cancel,
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBe(crash);
    // The marker says the take-back is under way; its process "died".
    expect(runInProgress(store)).toMatchObject({ mode: 'redo', revert: true });
    engine.close();
    const reopened = openAt(path, NOW);
    reopened.store.runs.recoverDeadRun();
    expect(runInProgress(reopened.store)).toBeNull();
    expect(reopened.store.journal.get(changeId).state).toBe('applied');
    reopened.close();
    // Every row as it was. The edges' rowids are numbered anew: where they sat lived only in the
    // memory of the process that died (JournalTarget.placement), so the open restores the same
    // edges, in the same order per memory, at new rowids.
    expect(withoutEdgeRowids(dumpWithoutFeed(path))).toEqual(withoutEdgeRowids(afterApply));
  });
});
