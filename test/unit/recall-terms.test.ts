/**
 * The score contract: every explain row carries `terms`, named contributions already weighted,
 * that add up to the row's score within 0.001 under every profile (the BM25 term and the entity
 * boost included), on the nooa fixture and on a generated demo store, over many queries.
 */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { generateDemo, rng } from '../../core/demo/generate.js';
import * as R from '../../core/demo/recipe.js';
import { Engine } from '../../core/engine/engine.js';
import type { Memory } from '../../core/model/memory.js';
import { listAccesses } from '../../core/observe/access-log.js';
import { explain } from '../../core/recall/explain.js';
import { recallAndLog } from '../../core/recall/record.js';
import { movementText, replay } from '../../core/recall/replay.js';
import { resolveRequest } from '../../core/recall/request.js';
import { whyNot } from '../../core/recall/why-not.js';
import { termsSum } from '../../core/recall/terms.js';
import type { ExplainRow, RecallProfileName } from '../../core/recall/types.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { barSegments, segmentsSum } from '../../renderer/components/score-terms.js';
import { expected, FIXTURE_STORE, tempDir } from '../../support/fixture.js';
import { movableClock, newEngine, put } from '../helpers/recall-store.js';

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

  it('the renderer’s bar data has one segment per term and sums to the score, on both profiles', () => {
    for (const profile of PROFILES) {
      for (const query of demoQueries(10)) {
        for (const r of explain(demo, { query, k: 10, profile }).rows) {
          const segments = barSegments(r.terms);
          expect(segments.map((x) => x.key)).toEqual(profile === 'mnemo' ? MNEMO_KEYS : NOOA_KEYS);
          expect(Math.abs(segmentsSum(segments) - r.score)).toBeLessThanOrEqual(0.001);
        }
      }
    }
  });

  it('spread paths name their source and say why their factor is what it is', () => {
    const res = explain(demo, { query: 'why did webhooks spike p99 latency in production', k: 25, hops: 1, profile: 'mnemo' });
    // At hops 1 no path may claim hop 2 (the sibling spread once did).
    expect(Object.values(res.paths).flat().some((p) => p.rule.startsWith('sibling'))).toBe(true);
    const paths = Object.values(res.paths).flat();
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      expect(p.from_head.length).toBeGreaterThan(0);
      expect(p.hop).toBeGreaterThanOrEqual(1);
      expect(p.hop).toBeLessThanOrEqual(res.hops);
      expect(p.rule).toMatch(/^(causal edge|associative edge|sibling|parent)/);
    }
  });

  it("nooa's own fields keep their names, order and values; terms come last", () => {
    const call = (expected().explain as { query: string; k: number; hops: number; owner: string | null; rows: ExplainRow[] }[])[0]!;
    const res = explain(fixture, { query: call.query, k: call.k, hops: call.hops, owner: call.owner, profile: 'nooa-0.0.9' });
    expect(Object.keys(res.rows[0]!)).toEqual([...Object.keys(call.rows[0]!), 'terms']);
  });
});

describe('terms everywhere a score is shown: access log, why-not, replay', () => {
  let engine: Engine;
  afterAll(() => engine?.close());

  function build(): { clock: ReturnType<typeof movableClock>; weak: Memory; miss: Memory } {
    engine?.close();
    const clock = movableClock();
    engine = newEngine({ clock, profile: 'mnemo' });
    for (let i = 0; i < 8; i++) put(engine, { content: `deploy billing service step ${i} for Kestrel`, importance: 9 - i, entities: ['Kestrel'] });
    const weak = put(engine, { content: 'billing', importance: 1 });
    const miss = put(engine, { content: 'gardening tomatoes in the spring' });
    return { clock, weak, miss };
  }

  it('a logged recall stores each row’s terms in the event table (not in the ring), and the audit shows them', () => {
    build();
    const res = recallAndLog(engine, { query: 'deploy billing Kestrel', k: 5 }, 'recalled', { owner: 'Planner@a1', session_ref: null });
    const events = listAccesses(engine, { channels: ['recalled'], limit: 10 }).events;
    expect(events.length).toBe(res.rows.length);
    for (const e of events) {
      expect(e.terms, `event ${e.event_id}`).not.toBeNull();
      expect(Object.keys(e.terms!)).toEqual(MNEMO_KEYS);
      expect(Math.abs(termsSum(e.terms!) - e.score!)).toBeLessThanOrEqual(0.001);
    }
    const ring = JSON.parse((connectionOf(engine.store).prepare('SELECT data FROM memories WHERE id = ?').get(res.rows[0]!.id) as { data: string }).data).access_log;
    expect(Object.keys(ring.at(-1).components)).toEqual(['source', 'cos', 'rel', 'rec', 'imp', 'spread']);
    expect(ring.at(-1)).not.toHaveProperty('terms');
  });

  it('why-not gives the target’s and the cut row’s contributions, each summing to its score, with 1-based ranks in words', () => {
    const { weak, miss } = build();
    for (const [target, k] of [[weak.id, 3], [miss.id, 3], [weak.id, 50]] as const) {
      const w = whyNot(engine, resolveRequest(engine, { query: 'deploy billing Kestrel', k }, { k: 10 }), target);
      expect(Object.keys(w.contributions)).toEqual(MNEMO_KEYS);
      expect(Math.abs(termsSum(w.contributions) - w.terms.score), `${w.status}`).toBeLessThanOrEqual(0.001);
      expect(Math.abs(termsSum(w.kth!.terms) - w.kth!.score)).toBeLessThanOrEqual(0.001);
      if (w.rank !== null) expect(w.explanation[0]).toContain(`ranked #${w.rank + 1} of ${w.ranked}`);
    }
  });

  it('replay shows the terms then and now, their change, and the move in 1-based words', () => {
    const { clock } = build();
    recallAndLog(engine, { query: 'deploy billing Kestrel', k: 3 }, 'recalled', { owner: 'Planner@a1', session_ref: null });
    const ev = connectionOf(engine.store).prepare("SELECT id FROM mnemo_access_events WHERE channel = 'recalled' AND rank = 2").get() as { id: number };
    clock.advance(30 * 86400);
    const r = replay(engine, ev.id);
    expect(Object.keys(r.terms.before!)).toEqual(MNEMO_KEYS);
    expect(Object.keys(r.terms.after!)).toEqual(MNEMO_KEYS);
    expect(r.terms.delta!.rec).toBeCloseTo(r.terms.after!.rec - r.terms.before!.rec, 3);
    expect(r.movement).toMatch(new RegExp(`^was #3, now #${r.after!.rank! + 1} of ${r.ranked_now}`));
    expect(movementText(2, 13, 264, 10)).toBe('was #3, now #14 of 264: no longer in the top 10');
    expect(movementText(2, null, 264, 10)).toBe('was #3, no longer ranked (264 ranked now)');
  });
});
