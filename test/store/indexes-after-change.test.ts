/**
 * Issue 13 item 7's last second: after a long change (a reflection apply, its undo), every other
 * process on the store is further behind than a catch-up from the feed is worth, and used to
 * rebuild its recall indexes on its next recall (22 s at 100k for an agent that had answered
 * within a second all through the change). The process that wrote the change now brings its own
 * indexes up to date and writes their snapshots before the change's marker clears, so the others
 * load them (core/recall/indexes-after-change.ts).
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { leaveIndexesCurrent } from '../../core/recall/indexes-after-change.js';
import { rankRequest } from '../../core/recall/explain.js';
import { resolveRequest } from '../../core/recall/request.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { undoInBatches } from '../../core/store/shared/change-run.js';
import { runInProgress } from '../../core/store/shared/run-marker.js';
import type { IndexBuildEvent } from '../../core/store/derived/index-snapshots.js';
import { IndexSidecar } from '../../core/store/derived/index-sidecar.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';

const QUERIES = ['deploy', 'database migration', 'release notes bug'];

function open(path: string, snapshots = true): { engine: Engine; builds: string[] } {
  const builds: string[] = [];
  const engine = Engine.open(path, {
    clock: fixedClock(NOW),
    onWarning: () => {},
    indexSnapshots: { enabled: snapshots, onBuild: (e: IndexBuildEvent) => e.phase === 'start' && builds.push(e.index) },
  });
  return { engine, builds };
}

const rankings = (engine: Engine) => QUERIES.map((query) => rankRequest(engine, resolveRequest(engine, { query }, { k: 10 })).rows.slice(0, 10).map((r) => [r.id, r.activation]));

/** Another process opening the store now: what it has to build before its first recall, and what that recall ranks. */
function nextProcess(path: string): { builds: string[]; ranked: unknown } {
  const o = open(path);
  const ranked = rankings(o.engine);
  o.engine.close();
  return { builds: o.builds, ranked };
}

function freshRankings(path: string): unknown {
  const o = open(path, false);
  const ranked = rankings(o.engine);
  o.engine.close();
  return ranked;
}

/** The feed position every index snapshot in the sidecar reflects. */
function snapshotSeqs(path: string): number[] {
  const store = MemoryStore.open(path, { readonly: true });
  const sidecar = IndexSidecar.open(store)!;
  const names = ['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter'];
  const seqs = names.map((n) => sidecar.header(n)?.position.seq ?? -1);
  sidecar.close();
  store.close();
  return seqs;
}

describe('the indexes a long change leaves behind', () => {
  it('are brought up to date and written by the writer before the change ends, so the next process builds nothing', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = open(path);
    const markerSeen: boolean[] = [];
    const leave = leaveIndexesCurrent(writer.engine, { minRows: 0, holdMs: 0 });
    await applyPlan(writer.engine, plan, {
      pacing: { maxBatchItems: 200, pauseMs: 1 },
      beforeFinish: async () => {
        markerSeen.push(runInProgress(writer.engine.store) !== null);
        await leave();
      },
    });
    // It ran once, while the others still saw the change as in progress.
    expect(markerSeen).toEqual([true]);
    const end = writer.engine.store.feedPosition()!.seq;
    expect(snapshotSeqs(path)).toEqual([end, end, end]);
    const next = nextProcess(path);
    expect(next.builds).toEqual([]);
    expect(next.ranked).toEqual(freshRankings(path));
    writer.engine.close();
  });

  it('without it, the writer that never ranked leaves no snapshot and the next process rebuilds', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = open(path);
    await applyPlan(writer.engine, plan, { pacing: { maxBatchItems: 200, pauseMs: 1 } });
    writer.engine.close();
    expect(nextProcess(path).builds).toEqual(expect.arrayContaining(['recall.mnemo.bm25.porter']));
  });

  it('an undo leaves them at its last row too, before its marker clears', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = open(path);
    const applied = await applyPlan(writer.engine, plan, { pacing: { maxBatchItems: 200, pauseMs: 1 } });
    const leave = leaveIndexesCurrent(writer.engine, { minRows: 0, holdMs: 0 });
    const markerSeen: boolean[] = [];
    await undoInBatches(sqliteAdapterOf(writer.engine), applied.change_id!, { maxBatchItems: 200, pauseMs: 1 }, undefined, async () => {
      markerSeen.push(runInProgress(writer.engine.store) !== null);
      await leave();
    });
    expect(markerSeen).toEqual([true]);
    expect(writer.engine.store.journal.get(applied.change_id!).state).toBe('undone');
    expect(runInProgress(writer.engine.store)).toBeNull();
    const end = writer.engine.store.feedPosition()!.seq;
    expect(snapshotSeqs(path)).toEqual([end, end, end]);
    expect(nextProcess(path).ranked).toEqual(freshRankings(path));
    writer.engine.close();
  });

  it('are left alone after a change smaller than a catch-up', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = open(path);
    await applyPlan(writer.engine, plan, { pacing: { maxBatchItems: 200, pauseMs: 1 }, beforeFinish: leaveIndexesCurrent(writer.engine) });
    expect(writer.builds).toEqual([]);
    writer.engine.close();
  });
});
