/**
 * Conformance with nooa-memory v0.0.9 on its own fixture, under the `nooa-0.0.9` profile:
 * every explain call (flag-free calls end to end; calls whose dense cut was decided by numpy's
 * unstable tie-breaking given their recorded dense list through the test seam), every retention
 * entry, the usage panels and the KPIs. Set MNEMO_NOOA_FIXTURE to another fixture directory made
 * by the same reference to run the same checks on a store these tests have never seen.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { DEFAULT_FORGET_POLICY, isProtected, pruneEta, retention, shouldPrune } from '../../core/forget/policy.js';
import { storeKpis } from '../../core/observe/kpis.js';
import { perMemoryUsage } from '../../core/observe/usage.js';
import { explain } from '../../core/recall/explain.js';
import { rank } from '../../core/recall/pipeline.js';
import { NOOA_PROFILE } from '../../core/recall/profile.js';
import type { ExplainRow } from '../../core/recall/types.js';
import { FIXTURE_DIR, tempDir } from '../../support/fixture.js';
import { storeFrom } from '../../support/test-backend.js';
import { usageRecords } from '../../core/store/queries/usage.js';

const DIR = process.env['MNEMO_NOOA_FIXTURE'] ?? FIXTURE_DIR;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const exp: any = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));

interface Call {
  query: string;
  k: number;
  hops: number;
  owner: string | null;
  rows: ExplainRow[];
  dense: [string, number][];
  sparse: string[];
  dense_cut_tie: boolean;
  dense_noise_zero: boolean;
}

const calls: (Call & { label: string })[] = [
  ...(exp.explain as Call[]).map((c, i) => ({ ...c, label: `explain[${i}]` })),
  ...(exp.explain_full as Call[]).map((c, i) => ({ ...c, label: `explain_full[${i}]` })),
];
const flagged = (c: Call) => c.dense_cut_tie || c.dense_noise_zero;
const NUMERIC = ['score', 'cos', 'rel', 'rec', 'imp', 'spread'] as const;
const TOL = 1e-4;

let engine: Engine;
const maxDiff = { endToEnd: 0, seam: 0 };

beforeAll(() => {
  const file = join(tempDir(), 'store.sqlite');
  copyFileSync(join(DIR, 'store.sqlite'), file);
  const path = storeFrom(file);
  engine = Engine.open(path, { clock: fixedClock(exp.now), readonly: true, profile: 'nooa-0.0.9' });
});
afterAll(() => {
  engine.close();
  // The figures the closing note quotes.
  console.log(
    `conformance: ${calls.filter((c) => !flagged(c)).length} calls end to end, ${calls.filter(flagged).length} via the dense seam; ` +
      `max abs diff ${maxDiff.endToEnd} (end to end), ${maxDiff.seam} (seam)`,
  );
});

/**
 * Same ids in the same order and every number within 1e-4. Two rows may swap only when their
 * scores are within 1e-4 (near-ties the reference's float32 noise can flip).
 */
function compareRows(got: ExplainRow[], want: ExplainRow[], mode: 'endToEnd' | 'seam'): void {
  expect(got.length).toBe(want.length);
  const wantById = new Map(want.map((r) => [r.id, r]));
  got.forEach((g, i) => {
    const w = want[i]!;
    if (g.id !== w.id) {
      expect(Math.abs(g.score - w.score), `rank ${i}: ${g.id} vs ${w.id}`).toBeLessThanOrEqual(TOL);
    }
    const same = wantById.get(g.id);
    expect(same, `row ${g.id} is not in the reference's rows`).toBeDefined();
    for (const f of NUMERIC) {
      const d = Math.abs(g[f] - same![f]);
      maxDiff[mode] = Math.max(maxDiff[mode], d);
      expect(d, `${g.id} ${f}: ${g[f]} vs ${same![f]}`).toBeLessThanOrEqual(TOL);
    }
    expect({ source: g.source, type: g.type, owner: g.owner, head: g.head }).toEqual({ source: same!.source, type: same!.type, owner: same!.owner, head: same!.head });
  });
}

describe('explain conformance (nooa-0.0.9 profile)', () => {
  it('runs under the nooa profile by default on a nooa store', () => {
    const plain = Engine.open(join(DIR, 'store.sqlite'), { readonly: true });
    try {
      expect(plain.profile()).toBe('nooa-0.0.9');
    } finally {
      plain.close();
    }
  });

  it('covers every call in expected.json', () => {
    expect(calls.length).toBe(exp.explain.length + exp.explain_full.length);
    expect(calls.filter((c) => !flagged(c)).length).toBeGreaterThan(0);
  });

  it.each(calls.filter((c) => !flagged(c)).map((c) => [c.label, c] as const))('%s end to end', (_label, call) => {
    const res = explain(engine, { query: call.query, k: call.k, hops: call.hops, owner: call.owner });
    compareRows(res.rows, call.rows, 'endToEnd');
    // The candidate legs themselves: the keyword leg is exact, the dense leg holds the same memories.
    const ranking = rank(engine, { query: call.query, hops: call.hops, owner: call.owner, profile: NOOA_PROFILE, now: exp.now });
    expect(ranking.sparse.map((h) => h.id)).toEqual(call.sparse);
    expect(new Set(ranking.dense.map((h) => h.id))).toEqual(new Set(call.dense.map(([id]) => id)));
  });

  it.each(calls.filter(flagged).map((c) => [c.label, c] as const))('%s given its recorded dense list', (_label, call) => {
    const dense = call.dense.map(([id, cos]) => ({ id, cos }));
    const res = explain(engine, { query: call.query, k: call.k, hops: call.hops, owner: call.owner }, { dense });
    compareRows(res.rows, call.rows, 'seam');
    const ranking = rank(engine, { query: call.query, hops: call.hops, owner: call.owner, profile: NOOA_PROFILE, now: exp.now, dense });
    expect(ranking.sparse.map((h) => h.id)).toEqual(call.sparse);
  });
});

describe('forgetting conformance', () => {
  it('retention, protection, should_prune and prune_eta for every memory', () => {
    const recs = usageRecords(engine.store, exp.retention.map((r: { id: string }) => r.id));
    expect(recs.size).toBe(exp.retention.length);
    for (const want of exp.retention as { id: string; retention: number; protected: boolean; should_prune: boolean; prune_eta: number | null }[]) {
      const m = recs.get(want.id)!;
      expect(Math.abs(retention(m, exp.now) - want.retention), want.id).toBeLessThanOrEqual(1e-6);
      expect(isProtected(m), want.id).toBe(want.protected);
      expect(shouldPrune(m, exp.now), want.id).toBe(want.should_prune);
      const eta = pruneEta(m, DEFAULT_FORGET_POLICY);
      if (want.prune_eta === null) expect(eta, want.id).toBeNull();
      else expect(Math.abs(eta! - want.prune_eta), want.id).toBeLessThanOrEqual(1);
    }
  });
});

describe('observability conformance', () => {
  it('per_memory_usage equals the reference for every sampled memory', () => {
    const recs = usageRecords(engine.store, exp.usage.map((u: { id: string }) => u.id));
    for (const want of exp.usage) {
      const got = perMemoryUsage(recs.get(want.id)!, exp.now);
      expect({ ...got, prune_eta: null }).toEqual({ ...want, prune_eta: null });
      if (want.prune_eta === null) expect(got.prune_eta).toBeNull();
      else expect(Math.abs(got.prune_eta! - want.prune_eta)).toBeLessThanOrEqual(1e-6);
    }
  });

  it.each((exp.kpis as { owner: string | null }[]).map((k) => [String(k.owner), k] as const))('store_kpis for owner %s', (_o, k) => {
    const want = (k as { owner: string | null; kpis: Record<string, unknown> }).kpis;
    expect(storeKpis(engine, k.owner, exp.now)).toEqual(want);
  });
});

it('the fixture is present', () => {
  expect(existsSync(join(DIR, 'store.sqlite'))).toBe(true);
});
