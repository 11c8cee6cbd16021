import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import type { Edge } from '../../core/model/memory.js';
import { rank } from '../../core/recall/pipeline.js';
import { MNEMO_PROFILE, NOOA_PROFILE, profileDifferences, type RecallProfile } from '../../core/recall/profile.js';
import { cooccurrenceSpace } from '../../core/recall/mnemo/stages.js';

const T0 = 1_700_000_000;
const edge = (target_id: string, type: Edge['type']): Edge => ({ target_id, type, weight: 1, created_at: T0 });

async function conversation(owner = '') {
  const engine = Engine.open(':memory:', { create: true, clock: fixedClock(T0 + 86_400 * 30) });
  const session = await addMemory(engine, { content: 'Conversation session 1', created_at: T0, owner });
  const ids: string[] = [];
  const turns = [
    ['Ada', 'Ada: I went hiking in the mountains with my sister'],
    ['Ben', 'Ben: That sounds lovely, which trail?'],
    ['Ada', 'Ada: The ridge trail, we saw three eagles'],
    ['Ben', 'Ben: I adopted a cat last week'],
  ] as const;
  for (const [i, [speaker, content]] of turns.entries()) {
    const m = await addMemory(engine, { content, entities: [speaker], created_at: T0 + i * 60, owner, edges: [edge(session.id, 'part_of')] });
    if (i > 0) engine.store.addEdge(ids[i - 1]!, m.id, 'precedes');
    ids.push(m.id);
  }
  return { engine, session, ids };
}

const order = (engine: Engine, query: string, profile: RecallProfile, owner: string | null = null) =>
  rank(engine, { query, hops: profile.knobs.hops, owner, profile, now: engine.now() }).rows.map((r) => r.id);

function variant(f: Partial<RecallProfile['features']>): RecallProfile {
  return { ...MNEMO_PROFILE, features: { ...MNEMO_PROFILE.features, ...f } };
}

describe('mnemo recall features', () => {
  it('the BM25 leg finds stemmed words the substring and dense legs miss, and scores them', async () => {
    const { engine, ids } = await conversation();
    // Without the leg nothing ties "adopting cats" to "adopted a cat": no shared token, no substring.
    const off = rank(engine, { query: 'adopting cats', hops: 0, owner: null, profile: variant({ bm25: null }), now: engine.now() }).rows;
    expect(off.map((r) => r.id)).not.toContain(ids[3]);
    const rows = rank(engine, { query: 'adopting cats', hops: 0, owner: null, profile: MNEMO_PROFILE, now: engine.now() }).rows;
    expect(rows[0]!.id).toBe(ids[3]);
    expect(rows[0]!.kw).toBe(1);
    expect(rows[0]!.raw!.kw).toBeGreaterThan(0);
    engine.close();
  });

  it('the entity boost lifts the memories of the entity the query names', async () => {
    const { engine, ids } = await conversation();
    const q = 'What did Ben say about the trail?';
    const boosted = rank(engine, { query: q, hops: 0, owner: null, profile: MNEMO_PROFILE, now: engine.now() }).rows;
    const byId = new Map(boosted.map((r) => [r.id, r]));
    expect(byId.get(ids[1]!)!.ent).toBe(1);
    expect(byId.get(ids[2]!)!.ent).toBe(0);
    expect(boosted.findIndex((r) => r.id === ids[1])).toBeLessThan(boosted.findIndex((r) => r.id === ids[2]));
    engine.close();
  });

  it('sibling spread reaches the other turns of a session, with a part_of path, and only within the owner scope', async () => {
    const { engine, ids, session } = await conversation('coder@c1');
    const mine = order(engine, 'eagles', MNEMO_PROFILE, 'coder');
    expect(mine).toEqual(expect.arrayContaining(ids));
    const ranking = rank(engine, { query: 'eagles', hops: 1, owner: 'coder', profile: MNEMO_PROFILE, now: engine.now() });
    expect(ranking.paths.get(ids[3]!)!.some((p) => p.from === session.id && p.edge_type === 'part_of')).toBe(true);
    const without = rank(engine, { query: 'eagles', hops: 1, owner: 'coder', profile: variant({ sibling_spread: 0, parent_spread: 0 }), now: engine.now() });
    expect((without.paths.get(ids[3]!) ?? []).some((p) => p.edge_type === 'part_of')).toBe(false);
    const spreadOf = (r: typeof ranking, id: string) => r.rows.find((x) => x.id === id)!.spread;
    expect(spreadOf(ranking, ids[0]!)).toBeGreaterThan(spreadOf(without, ids[0]!));
    // A reader of another role sees nothing of this conversation, through any leg or spread.
    expect(order(engine, 'eagles', MNEMO_PROFILE, 'writer')).toEqual([]);
    engine.close();
  });

  it('the nooa profile runs none of it: no BM25 term, no entity share, min-max recency', async () => {
    const { engine } = await conversation();
    const rows = rank(engine, { query: 'adopting cats eagles', hops: 1, owner: null, profile: NOOA_PROFILE, now: engine.now() }).rows;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.kw).toBeUndefined();
      expect(r.ent).toBeUndefined();
      expect(r.raw?.kw).toBeUndefined();
    }
    expect(Math.max(...rows.filter((r) => r.raw).map((r) => r.rec))).toBe(1);
    expect(profileDifferences(NOOA_PROFILE)).toEqual([]);
    expect(profileDifferences(MNEMO_PROFILE).join('\n')).toMatch(/BM25 candidate leg[\s\S]*entities a query names[\s\S]*part_of siblings[\s\S]*not min-max normalised/);
    engine.close();
  });

  it('absolute recency stays a small term for memories weeks old', async () => {
    const { engine } = await conversation();
    const rows = rank(engine, { query: 'trail eagles', hops: 0, owner: null, profile: MNEMO_PROFILE, now: engine.now() }).rows;
    for (const r of rows) expect(r.rec).toBeLessThan(0.01);
    engine.close();
  });
});

describe('the co-occurrence term', () => {
  it('is off in the built-in profiles, and when on adds weight × the cosine to each candidate raw relevance', async () => {
    const { engine } = await conversation();
    for (const profile of [MNEMO_PROFILE, NOOA_PROFILE]) {
      expect(profile.features.cooccurrence).toBe(0);
      for (const r of rank(engine, { query: 'mountains eagles', hops: 1, owner: null, profile, now: engine.now() }).rows) expect(r.raw?.sem).toBeUndefined();
    }
    const on = variant({ cooccurrence: 2 });
    const w = on.knobs.weights;
    const rows = rank(engine, { query: 'mountains eagles', hops: 1, owner: null, profile: on, now: engine.now() }).rows.filter((r) => r.raw);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.raw!.sem! > 0.1)).toBe(true);
    for (const r of rows) expect(r.raw!.rel).toBeCloseTo(w.lambda_embed * r.raw!.cos + (1 - w.lambda_embed) * r.raw!.ctx + 2 * r.raw!.sem!, 9);
    expect(profileDifferences(on).join('\n')).toMatch(/co-occurrences/);
    engine.close();
  });

  it('embeds a few changed memories with the last build, and rebuilds once more than a tenth have changed', async () => {
    const engine = Engine.open(':memory:', { create: true, clock: fixedClock(T0 + 86_400) });
    const topics = ['pottery class clay glaze kiln', 'painting canvas brush easel oils', 'hiking trail ridge eagles summit'];
    for (let i = 0; i < 30; i++) await addMemory(engine, { content: `note ${i}: ${topics[i % 3]}`, created_at: T0 + i });
    const on = variant({ cooccurrence: 1 });
    const ask = () => rank(engine, { query: 'kiln', hops: 0, owner: null, profile: on, now: engine.now() });
    ask();
    const first = cooccurrenceSpace(engine);
    const late = await addMemory(engine, { content: 'glaze and clay again', created_at: T0 + 100 });
    const row = ask().rows.find((r) => r.id === late.id);
    // Not rebuilt: the new memory is embedded with the first build's word vectors.
    expect(cooccurrenceSpace(engine)).toBe(first);
    expect(first.ids).not.toContain(late.id);
    expect(row?.raw?.sem).toBeGreaterThan(0.3);
    for (let i = 0; i < 3; i++) await addMemory(engine, { content: `more clay ${i}`, created_at: T0 + 200 + i });
    ask();
    expect(cooccurrenceSpace(engine)).not.toBe(first);
    expect(cooccurrenceSpace(engine).ids).toContain(late.id);
    engine.close();
  });

  it('follows the store: a memory written after the first recall is in the space at the next', async () => {
    const { engine, ids } = await conversation();
    const on = variant({ cooccurrence: 1 });
    rank(engine, { query: 'eagles', hops: 1, owner: null, profile: on, now: engine.now() });
    expect(cooccurrenceSpace(engine).ids).toEqual(expect.arrayContaining(ids));
    const later = await addMemory(engine, { content: 'Ben: the eagles nest on the ridge', created_at: T0 + 600 });
    engine.store.addEdge(ids[3]!, later.id, 'precedes');
    const row = rank(engine, { query: 'eagles', hops: 1, owner: null, profile: on, now: engine.now() }).rows.find((r) => r.id === later.id);
    expect(cooccurrenceSpace(engine).ids).toContain(later.id);
    expect(row?.raw?.sem).toBeGreaterThan(0.1);
    engine.close();
  });
});
