/**
 * The tuner's cached evaluation (core/tune/rank-cache.ts) must rank exactly as recall does: one
 * cache shared across many random profiles (so candidate sets gathered under one profile are
 * offered to the next) gives the same rows, in the same order, with the same activations, as
 * `rank` under each profile, on a small synthetic store with edges and on the nooa fixture.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.js';
import { rng } from '../../core/demo/generate.js';
import { rank } from '../../core/recall/pipeline.js';
import { MNEMO_PROFILE, NOOA_PROFILE, type RecallProfile } from '../../core/recall/profile.js';
import { knobSpace, knobValue, withKnobs } from '../../core/tune/knob-space.js';
import type { LabelledQuery, LabelledStore } from '../../core/tune/labels.js';
import { RankCache } from '../../core/tune/rank-cache.js';
import { fixtureCopy } from '../../support/fixture.js';
import { NOW, newEngine, put } from '../helpers/recall-store.js';

const closers: (() => void)[] = [];
afterAll(() => closers.forEach((c) => c()));

/** The legs' sizes: drawn below the stores' sizes, so that they decide which memories are candidates. */
const LEG_SIZES = new Set(['knobs.n_dense', 'knobs.n_sparse', 'features.bm25.n']);

/**
 * Profiles as a coordinate search visits them: each the one before with one knob drawn again at
 * random (a quarter of the draws of a knob whose range starts at 0 give 0, which turns some
 * features off), so a candidate set gathered under one profile is offered to the next.
 */
function randomWalk(base: RecallProfile, rand: () => number, steps: number): RecallProfile[] {
  const specs = knobSpace(base);
  const x = specs.map((s) => knobValue(base, s.name));
  const out = [base];
  for (let i = 0; i < steps; i++) {
    const j = Math.floor(rand() * specs.length);
    const s = specs[j]!;
    x[j] = LEG_SIZES.has(s.name) ? 5 + rand() * 15 : s.min === 0 && rand() < 0.25 ? 0 : s.min + rand() * (s.max - s.min);
    out.push(withKnobs(base, specs, x, `walk-${i}`));
  }
  return out;
}

function expectSameRanks(store: LabelledStore, base: RecallProfile, seed: number): void {
  const cache = new RankCache();
  for (const profile of randomWalk(base, rng(seed), 40)) {
    for (const q of store.queries) {
      const real = rank(store.engine, { query: q.query, hops: profile.knobs.hops, owner: q.owner, profile, now: q.asOf });
      const cached = cache.rank(store, q, profile);
      expect(cached.rows.map((r) => [r.id, r.activation, r.base, r.spread]), `${profile.name}: ${q.query}`).toEqual(real.rows.map((r) => [r.id, r.activation, r.base, r.spread]));
    }
  }
}

/** Sessions of turns: `part_of` edges to the session, `precedes` edges between consecutive turns, varied ages and importance. */
function conversationStore(): LabelledStore {
  const engine = newEngine({ profile: 'mnemo' });
  closers.push(() => engine.close());
  const rand = rng(7);
  const words = ['camping', 'pottery', 'guitar', 'adoption', 'painting', 'marathon', 'museum', 'violin', 'parade', 'garden', 'Melanie', 'Caroline', 'lake', 'sunrise', 'clarinet', 'bowl', 'necklace', 'roadtrip', 'beach', 'shoes', 'horse', 'library', 'mentor', 'concert'];
  const pick = () => words[Math.floor(rand() * words.length)]!;
  for (let s = 0; s < 12; s++) {
    const session = put(engine, { content: `session ${s}`, type: 'episode', created_at: NOW - 86_400 * (30 - s) });
    const turns = Array.from({ length: 10 }, (_, t) => `turn-${s}-${t}`);
    turns.forEach((id, t) => {
      const speaker = t % 2 === 0 ? 'Melanie' : 'Caroline';
      put(engine, {
        id,
        type: 'episode',
        content: `${speaker}: ${pick()} ${pick()}, ${pick()} and ${pick()}`,
        entities: [speaker],
        importance: 1 + Math.floor(rand() * 9),
        created_at: NOW - 86_400 * (30 - s) + 60 * t,
        edges: [
          { target_id: session.id, type: 'part_of', weight: 1, created_at: NOW - 86_400 * (30 - s) },
          ...(t + 1 < turns.length ? [{ target_id: turns[t + 1]!, type: 'precedes' as const, weight: 1, created_at: NOW - 86_400 * (30 - s) }] : []),
        ],
      });
    });
  }
  const queries: LabelledQuery[] = ['What did Melanie do at the pottery group?', 'When did Caroline go camping?', 'guitar museum parade', 'Who likes painting?'].map((query, i) => ({
    id: `q${i}`,
    query,
    owner: null,
    asOf: NOW,
    relevant: [],
  }));
  return { engine, queries };
}

describe('RankCache', () => {
  it('ranks a synthetic conversation store exactly as recall does, under random mnemo profiles', () => {
    expectSameRanks(conversationStore(), MNEMO_PROFILE, 11);
  });

  it('ranks the fixture exactly as recall does, under random mnemo and nooa profiles', () => {
    const engine = Engine.open(fixtureCopy(), { readonly: true });
    closers.push(() => engine.close());
    const contents = [...engine.store.iter()].slice(0, 6).map((m) => m.content);
    const queries: LabelledQuery[] = contents.map((c, i) => ({ id: `f${i}`, query: c.split(/\s+/).slice(0, 5).join(' '), owner: null, asOf: engine.now(), relevant: [] }));
    const store = { engine, queries };
    expectSameRanks(store, MNEMO_PROFILE, 3);
    expectSameRanks(store, NOOA_PROFILE, 5);
  });
});
