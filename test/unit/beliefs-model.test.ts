import { calibrate } from '../../core/beliefs/calibration.js';
import { calibrationFor, signalsModelFor } from '../../core/beliefs/calibration-choice.js';
import { signalFeatures } from '../../core/beliefs/answer-signals.js';
import { signalsProbability } from '../../core/beliefs/signals-model.js';
import { afterEach, describe, expect, it } from 'vitest';
import { lambdaPerSecond, PAPER_CONFIG } from '../../core/beliefs/config.js';
import { decay, OTHER } from '../../core/beliefs/equations.js';
import { readBelief, readEntity } from '../../core/beliefs/read.js';
import { applyObservation } from '../../core/beliefs/update.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import type { Engine } from '../../core/engine/engine.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';

const T0 = 1_700_000_000;
const lambda = lambdaPerSecond(PAPER_CONFIG);
let open: Engine[] = [];
afterEach(() => {
  for (const e of open) e.close();
  open = [];
});
function fresh() {
  const f = freshEngine();
  open.push(f.engine);
  return f;
}

describe('observe and ingest', () => {
  it('one delta per observation with prior, posterior, surprise, reliability and evidence', () => {
    const { model } = fresh();
    model.ingest([obs('Ada Osei', 'city', 'Lyon', T0, 0.9), obs('Ada Osei', 'city', 'Porto', T0 + 30 * DAY, 0.8)], NOW);
    const deltas = model.tables.deltasOf('Ada Osei', 'city');
    expect(deltas).toHaveLength(2);
    const first = applyObservation(null, 'Lyon', T0, 0.9, PAPER_CONFIG, lambda);
    const second = applyObservation({ dist: first.posterior, tLast: T0 }, 'Porto', T0 + 30 * DAY, 0.8, PAPER_CONFIG, lambda);
    expect(deltas[0]!.posterior).toEqual(first.posterior);
    expect(deltas[1]!.prior).toEqual(second.prior);
    expect(deltas[1]!.posterior).toEqual(second.posterior);
    expect(deltas[1]!.surprise).toBeCloseTo(second.surprise, 12);
    expect(deltas[1]!.epsilon).toBeCloseTo(0.2, 12);
    expect(deltas[1]!.evidence).toBe("Ada Osei's city is Porto.");
    const dim = model.tables.dimension('Ada Osei', 'city')!;
    expect(dim.distribution).toEqual(second.posterior);
    expect(dim.t_last).toBe(T0 + 30 * DAY);
    expect(dim.deltas).toBe(2);
  });

  it('records the constants with the first observation and refuses to change them afterwards', () => {
    const { model, engine } = fresh();
    expect(engine.store.getMeta('beliefs_config')).toBeNull();
    model.ingest([obs('Ada Osei', 'city', 'Lyon', T0)], NOW);
    expect(JSON.parse(engine.store.getMeta('beliefs_config')!)).toEqual(PAPER_CONFIG);
    expect(() => model.configure('nous-code')).toThrow(/built with the paper profile/);
    expect(() => model.configure('paper')).not.toThrow();
  });

  it('a late observation is logged and its dimension replayed in time order', () => {
    const a = fresh().model;
    a.ingest([obs('Ada Osei', 'role', 'chef', T0), obs('Ada Osei', 'role', 'pilot', T0 + 60 * DAY)], NOW);
    const res = a.ingest([obs('Ada Osei', 'role', 'nurse', T0 + 20 * DAY, 0.7)], NOW);
    expect(res.replayed_dimensions).toBe(1);
    const b = fresh().model;
    b.ingest([obs('Ada Osei', 'role', 'chef', T0), obs('Ada Osei', 'role', 'nurse', T0 + 20 * DAY, 0.7), obs('Ada Osei', 'role', 'pilot', T0 + 60 * DAY)], NOW);
    const strip = (m: typeof a) => m.tables.deltasOf('Ada Osei', 'role').map((d) => [d.value, d.t, d.prior, d.posterior, d.surprise]);
    expect(strip(a)).toEqual(strip(b));
    expect(a.tables.dimension('Ada Osei', 'role')).toEqual(b.tables.dimension('Ada Osei', 'role'));
  });
});

describe('query_at: time travel from the delta log, decayed in dataset time', () => {
  it('returns the posterior of the last delta at or before T, decayed to T', () => {
    const { model } = fresh();
    model.ingest([obs('Ada Osei', 'city', 'Lyon', T0), obs('Ada Osei', 'city', 'Porto', T0 + 100 * DAY), obs('Ada Osei', 'city', 'Porto', T0 + 110 * DAY)], NOW);
    const deltas = model.tables.deltasOf('Ada Osei', 'city');
    const mid = readBelief(model, 'Ada Osei', 'city', T0 + 50 * DAY);
    const expected = decay(deltas[0]!.posterior, lambda, 50 * DAY);
    expect(mid.value).toBe('Lyon');
    // The equation gives the model's probability; the headline p is the signals model's (signals-fitted.ts),
    // and without it the calibration map's (calibration-fitted.ts).
    expect(mid.p_model).toBeCloseTo(expected['Lyon']!, 12);
    expect(mid.calibrated).toBe(true);
    expect(mid.p_source).toBe('signals');
    expect(mid.p).toBeCloseTo(signalsProbability(signalsModelFor(model.config(), 'as-of')!, signalFeatures(mid.signals!)), 12);
    const platt = readBelief(model, 'Ada Osei', 'city', T0 + 50 * DAY, 'as-of', { signals: false });
    expect(platt.p_source).toBe('calibration');
    expect(platt.p).toBeCloseTo(calibrate(calibrationFor(model.config(), 'as-of')!, expected['Lyon']!), 12);
    expect(mid.deltas).toBe(1);
    expect(mid.t_last).toBe(T0);
    expect(mid.entropy).toBeGreaterThan(readBelief(model, 'Ada Osei', 'city', T0).entropy);
    expect(readBelief(model, 'Ada Osei', 'city', T0 + 120 * DAY).value).toBe('Porto');
    const before = readBelief(model, 'Ada Osei', 'city', T0 - 1);
    expect(before.value).toBeNull();
    expect(before.deltas).toBe(0);
  });

  it('hindsight uses what was learned after T; as-of does not', () => {
    const { model } = fresh();
    model.ingest(
      [obs('Ada Osei', 'city', 'Lyon', T0), obs('Ada Osei', 'city', 'Lyon', T0 + 30 * DAY), obs('Ada Osei', 'city', 'Seoul', T0 + 101 * DAY), obs('Ada Osei', 'city', 'Seoul', T0 + 130 * DAY)],
      NOW,
    );
    expect(readBelief(model, 'Ada Osei', 'city', T0 + 100 * DAY, 'as-of').value).toBe('Lyon');
    expect(readBelief(model, 'Ada Osei', 'city', T0 + 100 * DAY, 'hindsight').value).toBe('Seoul');
  });

  it('distribution lists every value with the catch-all last among equals, and max entropy is log2 |V|', () => {
    const { model } = fresh();
    model.ingest([obs('Ada Osei', 'pet', 'a parrot', T0), obs('Ada Osei', 'pet', 'goldfish', T0 + DAY)], NOW);
    const v = readBelief(model, 'Ada Osei', 'pet', T0 + DAY);
    expect(v.distribution.map((d) => d.value).sort()).toEqual([OTHER, 'a parrot', 'goldfish'].sort());
    expect(v.distribution.reduce((s, d) => s + d.p, 0)).toBeCloseTo(1, 12);
    expect(v.max_entropy).toBeCloseTo(Math.log2(3), 12);
  });
});

describe('Eq. 7 in the model', () => {
  it('lists reliable values of a set-valued attribute; the no-aggregation ablation lists only the mode', () => {
    const { model } = fresh();
    model.ingest(
      [obs('Zoe Yilmaz', 'hobby', 'knitting', T0), obs('Zoe Yilmaz', 'hobby', 'sailing', T0 + 40 * DAY), obs('Zoe Yilmaz', 'hobby', 'pottery', T0 + 80 * DAY, 0.2), obs('Zoe Yilmaz', 'hobby', 'salsa', T0 + 90 * DAY, 0.85)],
      NOW,
    );
    expect(readBelief(model, 'Zoe Yilmaz', 'hobby', NOW).values.sort()).toEqual(['knitting', 'sailing', 'salsa']);
    const { model: flat } = fresh();
    flat.configure('paper', { aggregation: false });
    flat.ingest([obs('Zoe Yilmaz', 'hobby', 'knitting', T0), obs('Zoe Yilmaz', 'hobby', 'sailing', T0 + 40 * DAY)], NOW);
    expect(readBelief(flat, 'Zoe Yilmaz', 'hobby', NOW).values).toEqual(['sailing']);
  });
});

describe('beliefs link to memories', () => {
  it('a delta names its memory, and a memory reaches the deltas it moved', async () => {
    const { model, engine } = fresh();
    const m = await addMemory(engine, { content: 'Ada moved to Porto.' });
    model.ingest([obs('Ada Osei', 'city', 'Porto', T0, 0.9, { memory_id: m.id }), obs('Ada Osei', 'role', 'chef', T0)], NOW);
    const moved = model.tables.deltasForMemory(m.id);
    expect(moved.map((d) => [d.entity, d.attribute, d.value])).toEqual([['Ada Osei', 'city', 'Porto']]);
    expect(model.tables.delta(moved[0]!.id)!.memory_id).toBe(m.id);
  });
});

describe('reading entities', () => {
  it('returns every dimension of an entity at T', () => {
    const { model } = fresh();
    model.ingest([obs('Ada Osei', 'city', 'Lyon', T0), obs('Ada Osei', 'role', 'chef', T0 + 10 * DAY)], NOW);
    expect(readEntity(model, 'Ada Osei', T0 + 5 * DAY).map((v) => v.attribute)).toEqual(['city']);
    expect(readEntity(model, 'Ada Osei', T0 + 20 * DAY).map((v) => v.attribute)).toEqual(['city', 'role']);
  });
});
