import { afterEach, describe, expect, it } from 'vitest';
import { applyAliasMerges, mergeOf, rejectAliasPair } from '../../core/beliefs/aliases.js';
import { nameRelation, planAliases } from '../../core/beliefs/identity.js';
import { readBelief } from '../../core/beliefs/read.js';
import type { BeliefModel } from '../../core/beliefs/model.js';
import type { BeliefConfigOverrides } from '../../core/beliefs/config.js';
import type { Engine } from '../../core/engine/engine.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';

const T0 = 1_700_000_000;
let open: Engine[] = [];
afterEach(() => {
  for (const e of open) e.close();
  open = [];
});

function world(overrides: BeliefConfigOverrides = {}): { model: BeliefModel; engine: Engine } {
  const f = freshEngine();
  open.push(f.engine);
  f.model.configure('paper', overrides);
  const o = (e: string, a: string, v: string, d: number, r = 0.9) => obs(e, a, v, T0 + d * DAY, r);
  f.model.ingest(
    [
      o('Alexandra Stone', 'city', 'Lyon', 0),
      o('Alexandra Stone', 'city', 'Lyon', 30),
      o('Alexandra Stone', 'city', 'Lyon', 60),
      o('Alexandra Stone', 'role', 'chef', 5),
      o('Alexandra Stone', 'role', 'chef', 50),
      o('Alexandra Stone', 'pet', 'goldfish', 10),
      o('Alexandra Stone', 'pet', 'goldfish', 70),
      o('Alexandra Stone', 'hobby', 'chess', 15),
      o('Alexandra Stone', 'hobby', 'sailing', 45),
      o('Alex Stone', 'city', 'Lyon', 20),
      o('Alex Stone', 'role', 'chef', 30),
      o('Alex Stone', 'pet', 'goldfish', 40),
      o('Alex Stone', 'hobby', 'chess', 50),
      o('Alba Stone', 'city', 'Seoul', 0),
      o('Alba Stone', 'city', 'Seoul', 40),
      o('Alba Stone', 'role', 'pilot', 10),
      o('Alba Stone', 'role', 'pilot', 60),
      o('Alba Stone', 'pet', 'a husky', 20),
      o('Alba Stone', 'hobby', 'running', 30),
      o('Bob Stone', 'city', 'Lyon', 20),
      o('Bob Stone', 'role', 'chef', 30),
      o('Bob Stone', 'pet', 'goldfish', 40),
      o('Alex Brown', 'city', 'Lyon', 20),
      o('Alex Brown', 'role', 'chef', 30),
      o('Alex Brown', 'pet', 'goldfish', 40),
      o('Al Stone', 'city', 'Lyon', 25),
      o('Al Stone', 'role', 'chef', 35),
    ],
    NOW,
  );
  return f;
}

describe('name relation (candidate rule)', () => {
  it('pairs a family name with related given names', () => {
    expect(nameRelation('Kei Silva', 'Keiko Silva', 'family-and-given')).toBe('contains');
    expect(nameRelation('Meka Tanaka', 'Emeka Tanaka', 'family-and-given')).toBe('contains');
    expect(nameRelation('Dima Osei', 'Dmitri Osei', 'family-and-given')).toBe('initial');
    expect(nameRelation('Bia Haddad', 'Beatriz Haddad', 'family-and-given')).toBe('initial');
    expect(nameRelation('Lena Haddad', 'Hana Haddad', 'family-and-given')).toBeNull();
    expect(nameRelation('Kei Silva', 'Kei Larsen', 'family-and-given')).toBeNull();
    expect(nameRelation('Kei Silva', 'Kei Larsen', 'none')).toBe('any');
  });
});

describe('alias plans (Eq. 6 with a minimum overlap)', () => {
  it('proposes the low-divergence pair only, and writes nothing', () => {
    const { model } = world();
    const before = model.tables.counts();
    const plan = planAliases(model, NOW);
    expect(plan.proposals.map((p) => p.id)).toEqual(['Alex Stone → Alexandra Stone']);
    const p = plan.proposals[0]!;
    expect(p.shared).toEqual(['city', 'hobby', 'pet', 'role']);
    expect(p.divergence_per_attribute).toBeLessThanOrEqual(1);
    expect(p.divergence).toBeCloseTo(Object.values(p.per_attribute).reduce((a, b) => a + b, 0), 12);
    // Alba shares the family and initial but not the facts; Al shares only two attributes
    expect(plan.near_misses.some((m) => m.alias === 'Alba Stone' || m.canonical === 'Alba Stone')).toBe(true);
    expect([...plan.proposals, ...plan.near_misses].some((m) => m.alias === 'Al Stone' || m.canonical === 'Al Stone')).toBe(false);
    expect(model.tables.counts()).toEqual(before);
    expect(plan.basis).toBe(model.tables.basis());
  });

  it('without the name rule, a stranger with the same facts is proposed: the rule is what keeps Bob out', () => {
    const { model } = world({ aliasNameRule: 'none' });
    const ids = [...planAliases(model, NOW).proposals, ...planAliases(model, NOW).near_misses].map((p) => p.id);
    expect(ids.some((id) => id.includes('Bob Stone'))).toBe(true);
  });
});

describe('applying, undoing and rejecting merges', () => {
  it('merges the alias into the canonical entity and replays its dimensions from the log', () => {
    const { model } = world();
    const plan = planAliases(model, NOW);
    const res = applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, NOW);
    expect(res.change_id).not.toBeNull();
    expect(res.merged).toEqual([{ alias: 'Alex Stone', canonical: 'Alexandra Stone' }]);
    expect(model.resolve('Alex Stone')).toBe('Alexandra Stone');
    expect(model.tables.dimensionsOf('Alex Stone')).toEqual([]);
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(4);
    const aliasDeltas = model.tables.deltasOfEntities(['Alex Stone', 'Alexandra Stone']).filter((d) => d.observed_entity === 'Alex Stone');
    expect(aliasDeltas).toHaveLength(4);
    expect(aliasDeltas.every((d) => d.entity === 'Alexandra Stone')).toBe(true);
    // the alias name reads the merged belief, whose hobbies now include both names' reports
    expect(readBelief(model, 'Alex Stone', 'hobby', NOW).entity).toBe('Alexandra Stone');
    expect(readBelief(model, 'Alex Stone', 'hobby', NOW).values.sort()).toEqual(['chess', 'sailing']);
  });

  it('undo restores the separate entities exactly, redo merges again, and later observations follow', () => {
    const { model, engine } = world();
    const separate = JSON.stringify([model.tables.dimensionsOf('Alex Stone'), model.tables.dimensionsOf('Alexandra Stone')]);
    const plan = planAliases(model, NOW);
    const { change_id } = applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, NOW);
    model.ingest([obs('Alex Stone', 'city', 'Porto', T0 + 90 * DAY)], NOW);
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(5);
    engine.store.journal.undo(change_id!);
    expect(model.resolve('Alex Stone')).toBe('Alex Stone');
    expect(model.tables.dimension('Alex Stone', 'city')!.deltas).toBe(2); // the later report went back with its name
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(3);
    engine.store.journal.redo(change_id!);
    expect(model.resolve('Alex Stone')).toBe('Alexandra Stone');
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(5);
    // without the late report, undo gives back exactly the pre-merge dimensions
    const { model: m2, engine: e2 } = world();
    const p2 = planAliases(m2, NOW);
    const r2 = applyAliasMerges(m2, p2.proposals.map(mergeOf), p2.basis, NOW);
    e2.store.journal.undo(r2.change_id!);
    expect(JSON.stringify([m2.tables.dimensionsOf('Alex Stone'), m2.tables.dimensionsOf('Alexandra Stone')])).toBe(separate);
  });

  it('refuses a plan made before the log changed', () => {
    const { model } = world();
    const plan = planAliases(model, NOW);
    model.ingest([obs('Bob Stone', 'hobby', 'chess', T0)], NOW);
    expect(() => applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, NOW)).toThrow(/changed since this alias plan/);
    expect(model.tables.aliases()).toEqual([]);
  });

  it('refuses to merge names that are already one entity or have no beliefs', () => {
    const { model } = world();
    applyAliasMerges(model, [{ alias: 'Alex Stone', canonical: 'Alexandra Stone' }], undefined, NOW);
    expect(() => applyAliasMerges(model, [{ alias: 'Alex Stone', canonical: 'Alexandra Stone' }], undefined, NOW)).toThrow(/already one entity/);
    expect(() => applyAliasMerges(model, [{ alias: 'Nobody', canonical: 'Alexandra Stone' }], undefined, NOW)).toThrow(/no entity named "Nobody"/);
  });

  it('a rejected pair is not proposed again until the rejection is undone', () => {
    const { model, engine } = world();
    const { change_id } = rejectAliasPair(model, 'Alexandra Stone', 'Alex Stone', NOW);
    expect(planAliases(model, NOW).proposals).toEqual([]);
    engine.store.journal.undo(change_id!);
    expect(planAliases(model, NOW).proposals.map((p) => p.alias)).toEqual(['Alex Stone']);
  });

  it('a chain of merges points every alias at the final canonical name', () => {
    const { model } = world();
    applyAliasMerges(model, [{ alias: 'Al Stone', canonical: 'Alex Stone' }], undefined, NOW);
    applyAliasMerges(model, [{ alias: 'Alex Stone', canonical: 'Alexandra Stone' }], undefined, NOW);
    expect(model.tables.aliases().map((a) => [a.alias, a.canonical])).toEqual([
      ['Al Stone', 'Alexandra Stone'],
      ['Alex Stone', 'Alexandra Stone'],
    ]);
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(5);
  });
});
