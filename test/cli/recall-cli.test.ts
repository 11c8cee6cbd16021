/** The recall, forgetting and stats subcommands of `mnemo`, end to end on a copy of the nooa fixture. */
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { openStoreAt } from '../../core/store/open-location.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const now = String(expected().now);
let db: string;
beforeEach(() => {
  db = fixtureCopy();
});

describe('mnemo explain', () => {
  it("--json prints the reference rows for a flag-free call: nooa's fields unchanged, then terms that sum to the score", async () => {
    const call = expected().explain.find((c: { dense_cut_tie: boolean; dense_noise_zero: boolean; owner: string | null; hops: number }) => !c.dense_cut_tie && !c.dense_noise_zero && c.owner === 'Planner' && c.hops === 2);
    const res = await runCli(['explain', db, call.query, '--k', '10', '--hops', '2', '--owner', 'Planner', '--now', now, '--json']);
    expect(res.code).toBe(0);
    const rows = res.json();
    expect(Object.keys(rows[0])).toEqual(['rank', 'id', 'score', 'source', 'cos', 'rel', 'rec', 'imp', 'spread', 'type', 'owner', 'head', 'terms']);
    expect(rows.map((r: { id: string }) => r.id)).toEqual(call.rows.map((r: { id: string }) => r.id));
    for (const r of rows as { score: number; terms: Record<string, number> }[]) {
      expect(Object.keys(r.terms)).toEqual(['rel', 'rec', 'imp', 'spread']);
      expect(Math.abs(Object.values(r.terms).reduce((a, b) => a + b, 0) - r.score)).toBeLessThanOrEqual(0.001);
    }
  });

  it('text shows 1-based ranks and every term that makes the score, the BM25 and entity terms under mnemo', async () => {
    const text = await runCli(['explain', db, 'deploy notifier to staging', '--k', '3', '--profile', 'mnemo', '--now', now]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^#\s+id\s+score\s+\+rel\s+\+rec\s+\+imp\s+\+kw\s+\+ent\s+\+spread\s+source/);
    expect(lines[2]).toMatch(/^#1\s/);
    expect(text.stdout).toContain('score = +rel +rec +imp +kw +ent +spread');
    const nooa = await runCli(['explain', db, 'deploy notifier to staging', '--k', '3', '--profile', 'nooa-0.0.9', '--now', now]);
    expect(nooa.stdout.split('\n')[0]).toMatch(/^#\s+id\s+score\s+\+rel\s+\+rec\s+\+imp\s+\+spread\s+source/);
    const why = await runCli(['explain', db, 'deploy notifier to staging', '--k', '1', '--target', JSON.parse((await runCli(['explain', db, 'deploy notifier to staging', '--k', '3', '--json', '--now', now])).stdout)[2].id, '--now', now]);
    expect(why.stdout).toMatch(/below_k \(#3 of \d+\)/);
    expect(why.stdout).toMatch(/ranked #3 of \d+/);
    expect(why.stdout).toMatch(/score [\d.]+ = rel [\d.]+ \+ rec/);
  });

  it('--target explains a memory outside the top k', async () => {
    const { c } = expected().summary.chain;
    const res = await runCli(['explain', db, 'kestrel release checklist', '--k', '3', '--target', c.slice(0, 8), '--owner', 'Planner@a1', '--now', now, '--json']);
    expect(res.code).toBe(0);
    const w = res.json();
    expect(w.target).toBe(c);
    expect(['below_k', 'not_candidate']).toContain(w.status);
    expect(typeof w.legs.dense.reason).toBe('string');
    const text = await runCli(['explain', db, 'kestrel release checklist', '--k', '3', '--target', c, '--now', now]);
    expect(text.stdout).toMatch(/dense: /);
  });

  it('an explain never writes to a nooa store', async () => {
    await runCli(['explain', db, 'deploy billing', '--now', now]);
    const info = await runCli(['list', db, '--limit', '1', '--json']);
    expect(info.code).toBe(0);
    // Read through the port, so the same check holds on a PostgreSQL copy: Mnemo's rows were never added.
    const store = openStoreAt(db, { readonly: true });
    expect(store.hasMnemo()).toBe(false);
    store.close();
  });
});

describe('mnemo recall, search and replay', () => {
  it('recall logs the reader; replay shows the components before and after', async () => {
    const rec = await runCli(['recall', db, 'deploy billing to staging', '--k', '3', '--reader', 'Planner@a1', '--now', now, '--json']);
    expect(rec.code).toBe(0);
    expect(rec.json()).toHaveLength(3);
    const store = openStoreAt(db, { readonly: true });
    const ev = store
      .accessEvents({ channels: ['recalled'], limit: 1000 })
      .events.filter((e) => !e.backfilled)
      .map((e) => ({ id: e.event_id, reader_owner: e.reader_owner, rank: e.rank ?? -1 }))
      .sort((a, b) => a.rank - b.rank);
    store.close();
    expect(ev.map((e) => [e.reader_owner, e.rank])).toEqual([
      ['Planner@a1', 0],
      ['Planner@a1', 1],
      ['Planner@a1', 2],
    ]);
    const later = String(expected().now + 30 * 86400);
    const rep = await runCli(['replay', db, String(ev[0]!.id), '--now', later, '--json']);
    expect(rep.code).toBe(0);
    const r = rep.json();
    expect(r.rerun).toMatchObject({ query: 'deploy billing to staging', k: 3, hops: 1, now: Number(later) });
    expect(r.before.rank).toBe(0);
    const human = await runCli(['replay', db, String(ev[0]!.id), '--now', later]);
    expect(human.stdout).toMatch(/component\s+before\s+after\s+delta/);
    // Ranks read 1-based, every term of the score has its row, and the move reads without arithmetic.
    expect(human.stdout).toMatch(/^rank\s+#1\s/m);
    for (const t of ['+rel', '+rec', '+imp', '+spread']) expect(human.stdout).toMatch(new RegExp(`^\\${t}\\s`, 'm'));
    expect(human.stdout).toMatch(/^was #1, (now #\d+ of \d+|no longer ranked)/m);
    const search = await runCli(['search', db, 'deploy billing', '--k', '2', '--now', now, '--json']);
    expect(search.json().every((row: { spread: number }) => row.spread === 0)).toBe(true);
  });

  it('replay of a bad id is a clear error', async () => {
    expect((await runCli(['replay', db, 'abc'])).code).toBe(2);
    const missing = await runCli(['replay', db, '99999']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no access event|no access-event table/);
  });
});

describe('mnemo retention, stats and prune', () => {
  it('retention --json: one object per memory, as the reference', async () => {
    const res = await runCli(['retention', db, '--now', now, '--json']);
    expect(res.code).toBe(0);
    const rows = res.json();
    const want = expected().retention;
    expect(rows.map((r: { id: string }) => r.id)).toEqual(want.map((r: { id: string }) => r.id));
    rows.forEach((r: { retention: number; protected: boolean; should_prune: boolean; prune_eta: number | null }, i: number) => {
      expect(Object.keys(r)).toEqual(['id', 'retention', 'protected', 'should_prune', 'prune_eta']);
      expect(Math.abs(r.retention - want[i].retention)).toBeLessThan(1e-9);
      expect([r.protected, r.should_prune]).toEqual([want[i].protected, want[i].should_prune]);
      if (want[i].prune_eta === null) expect(r.prune_eta).toBeNull();
      else expect(Math.abs(r.prune_eta! - want[i].prune_eta)).toBeLessThan(1);
    });
  });

  it('stats --json prints the reference KPIs for each scope', async () => {
    for (const k of expected().kpis) {
      const args = ['stats', db, '--now', now, '--json', ...(k.owner ? ['--owner', k.owner] : [])];
      const res = await runCli(args);
      expect(res.code).toBe(0);
      expect(res.json().kpis).toEqual(k.kpis);
      expect(res.json().rows_vs_reads.total_reads).toBe(k.kpis.total_fetches);
    }
    expect((await runCli(['stats', db, '--owner', 'bad%scope'])).code).toBe(2);
  });

  it('prune --dry-run lists, --apply archives, and one of them is required', async () => {
    expect((await runCli(['prune', db, '--now', now])).code).toBe(2);
    expect((await runCli(['prune', db, '--dry-run', '--apply'])).code).toBe(2);
    const dry = await runCli(['prune', db, '--dry-run', '--now', now, '--json']);
    const wantIds = expected()
      .retention.filter((r: { should_prune: boolean }) => r.should_prune)
      .map((r: { id: string }) => r.id)
      .sort();
    expect(dry.json().candidates.map((c: { id: string }) => c.id).sort()).toEqual(wantIds);
    expect(dry.json().pruned).toEqual([]);
    const applied = await runCli(['prune', db, '--apply', '--now', now]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(new RegExp(`archived ${wantIds.length} memories`));
    const again = await runCli(['prune', db, '--dry-run', '--now', now, '--json']);
    expect(again.json().candidates).toEqual([]);
  });
});
