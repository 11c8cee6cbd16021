import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.js';
import { MNEMO_PROFILE } from '../../core/recall/profile.js';
import { fitProfile } from '../../core/tune/fit.js';
import { selectKnobs, withKnobs } from '../../core/tune/knob-space.js';
import { logLabels, loggedSessions } from '../../core/tune/log-labels.js';
import { queryMetrics } from '../../core/tune/metrics.js';
import { loggedStore, recencyPairs } from '../helpers/tune-store.js';

const closers: (() => void)[] = [];
afterAll(() => closers.forEach((c) => c()));

describe('queryMetrics', () => {
  it('reads recall, MRR and nDCG off the same top k', () => {
    const m = queryMetrics(new Set(['a', 'b']), ['x', 'a', 'y', 'b'], 3);
    expect(m.recall).toBe(0.5);
    expect(m.mrr).toBe(0.5);
    expect(m.ndcg).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
  });
});

describe('fitProfile', () => {
  // Base: the mnemo profile without recency, so each old twin (same text and importance) ties with its fresh, relevant twin.
  const base = { ...withKnobs(MNEMO_PROFILE, selectKnobs(MNEMO_PROFILE, ['knobs.weights.recency']), [0]), name: 'no-recency' };

  it('moves the knob that separates relevant from irrelevant, and the fitted profile beats the base on held-out queries', async () => {
    const { engine, train, heldOut } = recencyPairs();
    closers.push(() => engine.close());
    const progress: number[] = [];
    const fit = () => fitProfile({ base, name: 'fitted', train: [{ engine, queries: train }], heldOut: [{ engine, queries: heldOut }], k: 1, seed: 5, maxEvaluations: 60, onProgress: (p) => progress.push(p.evaluation) });
    const r = await fit();
    expect(r.held_out!.base.recall).toBeLessThan(0.5);
    expect(r.held_out!.fitted.recall).toBe(1);
    expect(r.profile.knobs.weights.recency).toBeGreaterThan(0);
    expect(r.profile.name).toBe('fitted');
    expect(r.objective[0]).toBe(r.train.base.recall);
    expect(r.objective.at(-1)).toBe(r.train.fitted.recall);
    expect(progress[0]).toBe(1);
    // The ablation sets recency back alone: the held-out gain goes with it.
    const recency = r.ablation.find((a) => a.knob === 'knobs.weights.recency')!;
    expect(recency.held_out.recall).toBeLessThan(0.5);
    // Deterministic for the seed.
    const again = await fit();
    expect(again.knobs).toEqual(r.knobs);
    expect(again.objective).toEqual(r.objective);
  });

  it('refuses nooa-0.0.9 as the output name and an abort stops it', async () => {
    const { engine, train } = recencyPairs();
    closers.push(() => engine.close());
    await expect(fitProfile({ base, name: 'nooa-0.0.9', train: [{ engine, queries: train }], heldOut: [] })).rejects.toThrow(/frozen/);
    const ctl = new AbortController();
    ctl.abort();
    await expect(fitProfile({ base, name: 'x', train: [{ engine, queries: train }], heldOut: [], signal: ctl.signal })).rejects.toThrow();
  });
});

describe('labels from the access log', () => {
  it('labels a recall with the results its session later dereferenced, and nothing else', () => {
    const { path, used } = loggedStore(6);
    const reader = Engine.open(path, { readonly: true });
    let sessions;
    try {
      sessions = loggedSessions(reader.store);
    } finally {
      reader.close();
    }
    expect(sessions.map((s) => s.session)).toEqual([...used.keys()]);
    for (const s of sessions) {
      expect(s.queries).toHaveLength(1);
      expect(s.queries[0]!.relevant).toEqual([used.get(s.session)]);
      expect(s.queries[0]!.query).toMatch(/^project \w+ status report$/);
    }
    const labels = logLabels(path, sessions, { heldOutShare: 0.34, windows: 2 });
    closers.push(labels.close);
    // 4 sessions train and the latest 2 are held out, in windows of consecutive sessions.
    expect(labels.train.map((w) => w.queries.map((q) => q.relevant[0]))).toEqual([[...used.values()].slice(0, 2), [...used.values()].slice(2, 4)]);
    expect(labels.heldOut.map((w) => w.queries.length)).toEqual([1, 1]);
    expect(labels.onPresentStore).toBe(0);
    // Replayed as of the session's start: the dereference (a later access) is not in the store yet.
    expect(labels.heldOut[0]!.engine.store.history).not.toBeNull();
    expect(() => logLabels(path, sessions, { minSessions: 7 })).toThrow(/6 session\(s\) with a labelled recall.*at least 7/);
  });
});
