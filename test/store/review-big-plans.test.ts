/**
 * Issue 14 part 3, the engine side of reviewing and committing a big plan: review.items filters,
 * sorts and samples a step's items; links between identical texts say why they were not merged;
 * review.counts gives the commit's planned effects for the confirmation; review.commit writes
 * exactly what the CLI's apply of the same accepted set writes, with n of N progress, and a
 * cancel through journal.cancel leaves the store as it was.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { call, invoke } from '../../core/api/service.js';
import { MnemoError } from '../../core/errors.js';
import { notMerged } from '../../core/reflect/not-merged.js';
import type { LinkOp, PlanOp } from '../../core/reflect/types.js';
import type { ViewMemory } from '../../core/reflect/view.js';
import { REVIEWED_PLANS, ReviewedPlan } from '../../core/review/review.js';
import { plansOf } from '../../core/reflect/plan-registry.js';
import { runInProgress } from '../../core/store/shared/run-marker.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { memoryHeads } from '../../core/store/queries/memory-views.js';
import { runCli } from '../helpers/cli.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { dumpStore, integrityOk } from '../../support/reflect.js';

const sessions: ApiSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.close();
});
/** Batches of a few operations, so a commit runs over many however fast the machine (its progress is read while it runs). */
const SMALL_BATCHES = { maxBatchItems: 25, pauseMs: 5 };

function open(path: string): ApiSession {
  const s = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
  s.open(path);
  sessions.push(s);
  return s;
}

type Link = LinkOp & { op: 'link' };
const cosOf = (o: PlanOp) => (o as Link).cos;

describe('review.items at scale: filter, sort, sample', () => {
  it('sorts links by cosine, filters by owner, type, text and a cosine band, and samples repeatably', { timeout: 120_000 }, async () => {
    const { path } = await plannedStore(1000);
    const s = open(path);
    const plan = await call(s, 'review.plan', {});
    const base = { plan_id: plan.id, op: 'link' as const, limit: 2000 };
    const all = await call(s, 'review.items', base);
    expect(all.total).toBeGreaterThan(100);
    expect(all.matched).toBe(all.total);

    const byCos = await call(s, 'review.items', { ...base, sort: 'cos_desc' });
    const cos = byCos.items.map((i) => cosOf(i.op));
    expect(cos).toEqual([...cos].sort((a, b) => b - a));
    expect(cos[0]).toBeGreaterThan(cos.at(-1)!);
    // Paging walks the same order.
    const page2 = await call(s, 'review.items', { ...base, sort: 'cos_desc', offset: 10, limit: 5 });
    expect(page2.items.map((i) => i.op.id)).toEqual(byCos.items.slice(10, 15).map((i) => i.op.id));

    const heads = await call(s, 'memory.list', { archived: 'all', limit: 5000 });
    const ownerOf = new Map(heads.rows.map((r) => [r.id, r.owner]));
    const typeOf = new Map(heads.rows.map((r) => [r.id, r.type]));
    const owner = ownerOf.get((all.items[0]!.op as Link).src)!;
    const mine = await call(s, 'review.items', { ...base, owner });
    expect(mine.matched).toBeGreaterThan(0);
    expect(mine.matched).toBeLessThan(all.total);
    for (const i of mine.items) expect([ownerOf.get((i.op as Link).src), ownerOf.get((i.op as Link).dst)]).toContain(owner);

    const byOwner = await call(s, 'review.items', { ...base, sort: 'owner' });
    const owners = byOwner.items.map((i) => ownerOf.get((i.op as Link).src)!);
    expect(owners).toEqual([...owners].sort());

    const type = typeOf.get((all.items[0]!.op as Link).src)!;
    const typed = await call(s, 'review.items', { ...base, type });
    expect(typed.matched).toBeGreaterThan(0);
    for (const i of typed.items) expect([typeOf.get((i.op as Link).src), typeOf.get((i.op as Link).dst)]).toContain(type);

    const band = await call(s, 'review.items', { ...base, cos_min: 0.85, cos_max: 0.9 });
    expect(band.matched).toBe(all.items.filter((i) => cosOf(i.op) >= 0.85 && cosOf(i.op) <= 0.9).length);
    for (const i of band.items) expect(cosOf(i.op)).toBeGreaterThanOrEqual(0.85);

    const word = heads.rows.find((r) => r.id === (all.items[0]!.op as Link).src)!.head.split(/\s+/).find((w) => w.length > 5)!;
    const text = await call(s, 'review.items', { ...base, text: word.toUpperCase() });
    expect(text.matched).toBeGreaterThan(0);
    expect(text.items.map((i) => i.op.id)).toContain(all.items[0]!.op.id);

    const sample = await call(s, 'review.items', { ...base, sample: 25, seed: 3 });
    expect(sample.matched).toBe(25);
    expect(new Set(sample.items.map((i) => i.op.id)).size).toBe(25);
    expect((await call(s, 'review.items', { ...base, sample: 25, seed: 3 })).items).toEqual(sample.items);
    expect((await call(s, 'review.items', { ...base, sample: 25, seed: 4 })).items.map((i) => i.op.id)).not.toEqual(sample.items.map((i) => i.op.id));

    // Links across two owners start unaccepted (issue 41): accept the step first, then reject one.
    const rejected = await call(s, 'review.items', { ...base, state: 'rejected', actions: [{ do: 'accept', group: 'link' }, { do: 'reject', ids: [all.items[3]!.op.id] }] });
    expect(rejected.items.map((i) => i.op.id)).toEqual([all.items[3]!.op.id]);
    const unaccepted = await call(s, 'review.items', { ...base, state: 'rejected' });
    expect(unaccepted.items.length).toBeGreaterThan(0);
    expect(unaccepted.items.every((i) => i.cross_owner && ownerOf.get((i.op as Link).src) !== ownerOf.get((i.op as Link).dst))).toBe(true);

    expect(await invoke(s, 'review.items', { ...base, cos_min: 0.9, cos_max: 0.8 })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });
});

describe('review.plan flags pairs across owners from the paired memories alone', () => {
  it('reads the owners of the memories its merges and links pair, never every memory, and flags the same pairs', { timeout: 120_000 }, async () => {
    const { path } = await plannedStore(1000);
    const s = open(path);
    const iterate = vi.spyOn(s.engine().store.sql, 'iterate');
    const summary = await call(s, 'review.plan', {});
    // memoryHeads is the one read of a head (title, the start of the content) of every memory.
    expect(iterate.mock.calls.filter(([q]) => /substr\(content/.test(JSON.stringify(q)))).toEqual([]);
    iterate.mockRestore();
    // The flags are those every memory's head gives.
    const plan = plansOf(s.engine()).get(REVIEWED_PLANS, summary.id)!.plan;
    const heads = memoryHeads(s.engine().store);
    const fromEveryHead = new ReviewedPlan(plan, (id) => heads.get(id)?.owner);
    expect(fromEveryHead.crossOwner.size).toBeGreaterThan(0);
    expect(summary.cross_owner).toBe(fromEveryHead.crossOwner.size);
  });
});

describe('links between identical texts say why they were not merged', () => {
  const mem = (id: string, over: Partial<ViewMemory>): ViewMemory =>
    ({ id, type: 'info', title: 'Webhooks', content: 'Webhook retries doubled p99 latency.', tags: ['ops'], owner: 'a', ...over }) as ViewMemory;

  it('names the failed merge guards with their values and what else differs in the embedding', () => {
    const n = notMerged(mem('a', {}), mem('b', { tags: ['ops', 'perf'], type: 'decision' }), 0.91, 0.95)!;
    expect(n).toMatchObject({
      text: 'identical',
      similarity: 1,
      failed: [
        { guard: 'cosine', cos: 0.91, threshold: 0.95 },
        { guard: 'type', src_type: 'info', dst_type: 'decision' },
      ],
      differs: { tags_src_only: [], tags_dst_only: ['perf'], title: false },
    });
    expect(n.summary).toMatch(/identical texts, not merged: cos 0\.9100 < merge threshold 0\.95 and types differ \(info vs decision\).*tags differ \(−perf\)/);
    expect(notMerged(mem('a', {}), mem('b', { content: 'webhook  RETRIES doubled p99 latency.' }), 0.9, 0.95)?.text).toBe('identical');
    expect(notMerged(mem('a', {}), mem('b', { content: 'The cache warmer skips cold shards.' }), 0.9, 0.95)).toBeNull();
  });

  it('marks the plan\'s links whose ends carry the same text, and only those', async () => {
    const { plan } = await plannedStore(1000);
    const links = plan.groups.find((g) => g.op === 'link')!.ops as LinkOp[];
    const marked = links.filter((l) => l.not_merged);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.length).toBeLessThan(links.length);
    for (const l of marked) {
      expect(l.not_merged!.failed[0]).toMatchObject({ guard: 'cosine', cos: l.cos, threshold: plan.policy.merge_threshold });
      expect(l.not_merged!.similarity).toBeGreaterThanOrEqual(0.9);
    }
    const r = new ReviewedPlan(plan);
    expect(r.items([], 'link', 0, 5000, { not_merged: true }).matched).toBe(marked.length);
  });
});

describe('review.commit', () => {
  it('gives the planned effects for the confirmation, and writes what the CLI apply of the same accepted set writes', { timeout: 180_000 }, async () => {
    const ui = await plannedStore(1000);
    const cli = await plannedStore(1000);
    const s = open(ui.path);
    const plan = await call(s, 'review.plan', {});
    const links = plan.groups.find((g) => g.op === 'link')!.count;
    const merges = await call(s, 'review.items', { plan_id: plan.id, op: 'merge', limit: 2000 });
    const actions = [
      { do: 'reject' as const, ids: [merges.items[0]!.op.id] },
      { do: 'reject' as const, group: 'prune' as const },
    ];
    const counts = await call(s, 'review.counts', { plan_id: plan.id, actions });
    expect(counts.effects.archived).toBeGreaterThanOrEqual(merges.total - 1);
    expect(counts.effects.edges).toBeGreaterThanOrEqual(counts.groups['link']!.accepted);
    expect(counts.effects.rescored).toBe(counts.groups['rescore']?.accepted ?? 0);
    expect(counts.groups['link']!.accepted).toBeLessThanOrEqual(links);

    const owners = MemoryStore.openReader(cli.path);
    const heads = memoryHeads(owners);
    owners.close();
    const accepted = new ReviewedPlan(cli.plan, (id) => heads.get(id)?.owner).accepted(actions);
    expect(accepted).toEqual(counts.accepted_ids);
    const out = await runCli(['reflect', cli.path, '--apply', cli.planPath, '--accept', accepted.join(','), '--now', String(NOW), '--json']);
    expect(out.code, out.stderr).toBe(0);

    const res = await call(s, 'review.commit', { plan_id: plan.id, actions });
    expect(res.accepted).toBe(accepted.length);
    expect(res.applied.length).toBe(out.json().applied);
    expect(res.report).toEqual({ ...out.json().report, duration_ms: res.report.duration_ms });
    // The result counts what it did as the confirmation counted it (issue 41), less what it skipped.
    expect(res.effects).toEqual(out.json().effects);
    if (res.skipped.length === 0) expect(res.effects).toEqual(counts.effects);
    for (const x of sessions.splice(0)) x.close();
    expect(dumpStore(ui.path)).toEqual(dumpStore(cli.path));
  });

  it('reports n of N while it runs, and a cancel leaves the store as it was', { timeout: 180_000 }, async () => {
    const { path } = await plannedStore(1000);
    const s = open(path);
    s.engine().store.ensureMnemo();
    const before = dumpStore(path);
    const plan = await call(s, 'review.plan', {});
    // With no actions the defaults stand: links across owners start unaccepted, so fewer items are
    // applied than planned, and the progress counts those (issue 37), not the plan's.
    const { accepted } = await call(s, 'review.counts', { plan_id: plan.id, actions: [] });
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(plan.items);
    let settled = false;
    const committing = call(s, 'review.commit', { plan_id: plan.id, actions: [] }).then(
      () => null,
      (err: unknown) => err,
    );
    void committing.finally(() => (settled = true));
    // The check before the apply (phase 'check') counts the store's rows; n of N is the apply's.
    let p: WriteJobState;
    do {
      p = await call(s, 'journal.progress', {});
      await new Promise((r) => setTimeout(r, 5));
    } while (!(p.running && p.phase === 'apply' && p.done > 0) && !settled);
    expect(p).toMatchObject({ running: true, kind: 'reflect.apply', phase: 'apply', unit: 'items', total: accepted, cancellable: true });
    expect(p.done).toBeLessThan(accepted);
    expect(await call(s, 'journal.cancel', {})).toEqual({ cancelled: true });
    const err = await committing;
    expect(err).toBeInstanceOf(MnemoError);
    expect((err as MnemoError).details).toMatchObject({ cancelled: true });
    expect(runInProgress(s.engine().store)).toBeNull();
    for (const x of sessions.splice(0)) x.close();
    expect(integrityOk(path)).toBe(true);
    expect(dumpStore(path)).toEqual(before);
  });
});
