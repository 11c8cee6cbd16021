import { afterEach, describe, expect, it } from 'vitest';
import { readBelief } from '../../core/beliefs/read.js';
import { ftsQuery, retrieve, seedEntities } from '../../core/beliefs/retrieval.js';
import type { Engine } from '../../core/engine/engine.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';

const T0 = 1_700_000_000;
let open: Engine[] = [];
afterEach(() => {
  for (const e of open) e.close();
  open = [];
});

function world() {
  const f = freshEngine();
  open.push(f.engine);
  f.model.ingest(
    [
      obs('Ann Lee', 'friend', 'Ben Park', T0),
      obs('Ann Lee', 'hobby', 'sailing', T0 + DAY, 0.9, { evidence: 'Ann Lee took up sailing last spring.' }),
      obs('Ben Park', 'colleague', 'Cara Diaz', T0),
      obs('Ben Park', 'city', 'Lyon', T0),
      obs('Cara Diaz', 'sibling', 'Dan Wu', T0),
      obs('Cara Diaz', 'role', 'pilot', T0),
      obs('Dan Wu', 'role', 'chef', T0),
      obs('Eve Moss', 'role', 'nurse', T0 + 400 * DAY, 0.9, { evidence: 'Eve Moss started sailing lessons.' }),
    ],
    NOW,
  );
  return f.model;
}

describe('seeds and queries', () => {
  it('finds entities by full name, or by a given name of 3+ letters', () => {
    const names = ['Ann Lee', 'Ben Park', 'Annabel Lee'];
    expect(seedEntities("Where does Ben Park live?", names)).toEqual(['Ben Park']);
    expect(seedEntities("Who is Ann's friend?", names)).toEqual(['Ann Lee']);
    expect(seedEntities('Who likes boats?', names)).toEqual([]);
  });

  it('quotes every word so punctuation cannot break the FTS5 syntax', () => {
    expect(ftsQuery('Who is "Ann\'s" friend?')).toBe('"who" OR "is" OR "ann" OR "friend"');
  });
});

describe('retrieval over beliefs', () => {
  it('walks relationship edges up to two hops and writes fact lines with their belief', () => {
    const model = world();
    const r = retrieve(model, "Who is Ann's friend?", { at: T0 + 2 * DAY });
    expect(r.seeds).toEqual(['Ann Lee']);
    expect(r.entities).toEqual([
      { entity: 'Ann Lee', hop: 0 },
      { entity: 'Ben Park', hop: 1 },
      { entity: 'Cara Diaz', hop: 2 },
    ]);
    // Retrieval runs on the model's own probabilities (its thresholds are Nous's), not the calibrated ones.
    const friend = readBelief(model, 'Ann Lee', 'friend', T0 + 2 * DAY, 'as-of', { calibrated: false });
    const city = readBelief(model, 'Ben Park', 'city', T0 + 2 * DAY, 'as-of', { calibrated: false });
    expect(r.relations.map((x) => x.line)).toContain(`Ann Lee --friend--> Ben Park (${Math.round(friend.p * 100)}% belief)`);
    expect(r.facts.map((f) => f.line)).toContain(`FACT Ben Park city: Lyon (${Math.round(city.p * 100)}% belief, ${city.entropy.toFixed(2)} bits of entropy)`);
    expect(r.facts.some((f) => f.entity === 'Dan Wu')).toBe(false);
    expect(r.lines.some((l) => l.startsWith('[Multi-hop path]'))).toBe(true);
    const one = retrieve(model, "Who is Ann's friend?", { at: T0 + 2 * DAY, hops: 1 });
    expect(one.entities.map((e) => e.entity)).toEqual(['Ann Lee', 'Ben Park']);
  });

  it('ranks delta evidence with BM25 and keeps only what was known at T', () => {
    const model = world();
    const r = retrieve(model, 'Who took up sailing?', { at: T0 + 2 * DAY });
    expect(r.evidence.map((e) => e.entity)).toEqual(['Ann Lee']);
    expect(r.evidence[0]!.line).toMatch(/^\[2023-11-15\] Ann Lee took up sailing last spring\. \(Ann Lee\.hobby = sailing, 1\.00 bits\)$/);
    expect(r.seeds).toEqual(['Ann Lee']);
    const later = retrieve(model, 'Who took up sailing?', { at: T0 + 500 * DAY });
    expect(later.evidence.length).toBeGreaterThanOrEqual(1);
  });
});
