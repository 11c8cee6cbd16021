/**
 * The score contract: every explain row carries `terms`, named contributions already weighted,
 * that add up to the row's score within 0.001 under every profile (the BM25 term and the entity
 * boost included), on the nooa fixture and on a generated demo store, over many queries.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../core/clock.js';
import { generateDemo, rng } from '../core/demo/generate.js';
import * as R from '../core/demo/recipe.js';
import { Engine } from '../core/engine/engine.js';
import { explain } from '../core/recall/explain.js';
import { termsSum } from '../core/recall/terms.js';
import type { ExplainRow, RecallProfileName } from '../core/recall/types.js';
import { MemoryStore } from '../core/store/store.js';
import { expected, FIXTURE_STORE, tempDir } from './helpers/fixture.js';

const NOW = 1_780_000_000;
const PROFILES: RecallProfileName[] = ['nooa-0.0.9', 'mnemo'];
const NOOA_KEYS = ['rel', 'rec', 'imp', 'spread'];
const MNEMO_KEYS = ['rel', 'rec', 'imp', 'kw', 'ent', 'spread'];

/** 50 queries from the demo store's own vocabulary (seeded), plus the one the issue quotes. */
function demoQueries(n: number): string[] {
  const rand = rng(14);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out = ['why did webhooks spike p99 latency in production'];
  while (out.length < n) {
    const shape = out.length % 4;
    if (shape === 0) out.push(`${pick(R.SERVICES)} ${pick(R.SYMPTOMS)} in ${pick(R.ENVS)}`);
    else if (shape === 1) out.push(`how to ${pick(R.TOOLS)} for ${pick(R.SERVICES)}`);
    else if (shape === 2) out.push(`${pick(R.TAGS)} ${pick(R.CAUSES)} ${pick(R.ENDPOINTS)}`);
    else out.push(`what did ${pick(R.PEOPLE)} say about ${pick(R.SERVICES)} ${pick(R.FILES)}`);
  }
  return out;
}

function checkRows(rows: ExplainRow[], profile: RecallProfileName): void {
  for (const r of rows) {
    expect(Object.keys(r.terms), `${profile} ${r.id}`).toEqual(profile === 'mnemo' ? MNEMO_KEYS : NOOA_KEYS);
    expect(Math.abs(termsSum(r.terms) - r.score), `${profile} row ${r.rank} ${r.id}: ${JSON.stringify(r.terms)} vs ${r.score}`).toBeLessThanOrEqual(0.001);
  }
}

describe('explain rows: terms add up to the score', () => {
  let demo: Engine;
  let fixture: Engine;
  beforeAll(() => {
    const path = join(tempDir(), 'demo.sqlite');
    const store = MemoryStore.open(path, { create: true });
    generateDemo(store, { size: 2000, seed: 7, now: NOW });
    store.close();
    demo = Engine.open(path, { clock: fixedClock(NOW), readonly: true });
    const copy = join(tempDir(), 'store.sqlite');
    copyFileSync(FIXTURE_STORE, copy);
    fixture = Engine.open(copy, { clock: fixedClock(expected().now), readonly: true });
  });
  afterAll(() => {
    demo.close();
    fixture.close();
  });

  for (const profile of PROFILES) {
    it(`on a 2k demo store, 50 queries, hops 1 and 2, under ${profile}`, () => {
      let rows = 0;
      let kw = 0;
      let ent = 0;
      for (const query of demoQueries(50)) {
        for (const hops of [1, 2]) {
          const res = explain(demo, { query, k: 25, hops, profile });
          checkRows(res.rows, profile);
          rows += res.rows.length;
          kw += res.rows.filter((r) => (r.terms.kw ?? 0) > 0).length;
          ent += res.rows.filter((r) => (r.terms.ent ?? 0) > 0).length;
        }
      }
      expect(rows).toBeGreaterThan(1000);
      // The terms the old breakdown left out really carry score under mnemo.
      if (profile === 'mnemo') {
        expect(kw).toBeGreaterThan(0);
        expect(ent).toBeGreaterThan(0);
      }
    });

    it(`on the nooa fixture, every recorded explain call, under ${profile}`, () => {
      const calls = [...expected().explain, ...expected().explain_full] as { query: string; k: number; hops: number; owner: string | null }[];
      expect(calls.length).toBeGreaterThan(10);
      for (const c of calls) {
        const res = explain(fixture, { query: c.query, k: c.k, hops: c.hops, owner: c.owner, profile });
        checkRows(res.rows, profile);
      }
    });
  }

  it('the first result for the issue query: the mnemo terms explain all of its score', () => {
    const res = explain(demo, { query: 'why did webhooks spike p99 latency in production', k: 5, profile: 'mnemo' });
    const top = res.rows[0]!;
    const classic = top.terms.rel + top.terms.rec + top.terms.imp + top.terms.spread;
    // The keyword term and the entity boost are what the old four-part breakdown was missing.
    expect(top.terms.kw! + top.terms.ent!).toBeCloseTo(top.score - classic, 3);
  });

  it("nooa's own fields keep their names, order and values; terms come last", () => {
    const call = (expected().explain as { query: string; k: number; hops: number; owner: string | null; rows: ExplainRow[] }[])[0]!;
    const res = explain(fixture, { query: call.query, k: call.k, hops: call.hops, owner: call.owner, profile: 'nooa-0.0.9' });
    expect(Object.keys(res.rows[0]!)).toEqual([...Object.keys(call.rows[0]!), 'terms']);
  });
});
