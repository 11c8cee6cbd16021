/**
 * Per-engine singletons are named by typed keys (the key object is the identity; disposal is the
 * key's, not guessed from the value), and the plans an engine keeps live in one registry that
 * keeps the last few of each kind.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine, extensionKey } from '../../core/engine/engine.js';
import { KEPT_PLANS, planKind, PlanRegistry, plansOf } from '../../core/reflect/plan-registry.js';
import { tempDir } from '../../support/fixture.js';

let engine: Engine | null = null;
afterEach(() => {
  engine?.close();
  engine = null;
});

function openEngine(): Engine {
  engine = Engine.open(join(tempDir('mnemo-ext-'), 'm.sqlite'), { create: true, clock: fixedClock(1_700_000_000) });
  return engine;
}

describe('engine extension keys', () => {
  it('creates a value once per engine and key; two keys with one name are two values', () => {
    const e = openEngine();
    let created = 0;
    const a = extensionKey('same.name', () => ({ n: ++created }));
    const b = extensionKey('same.name', () => ({ n: ++created }));
    expect(e.get(a)).toBe(e.get(a));
    expect(e.get(b)).not.toBe(e.get(a));
    expect(created).toBe(2);
  });

  it("disposes through the key, once, when the engine closes, and never a value's own dispose the key did not name", () => {
    const e = openEngine();
    const disposed: string[] = [];
    const withDispose = extensionKey(
      'with.dispose',
      () => ({ name: 'a' }),
      (v) => disposed.push(v.name),
    );
    const without = extensionKey('without.dispose', () => ({ dispose: () => disposed.push('guessed') }));
    e.get(withDispose);
    e.get(without);
    e.close();
    engine = null;
    expect(disposed).toEqual(['a']);
  });
});

describe('plan registry', () => {
  it(`keeps the last ${KEPT_PLANS} plans of each kind, each kind on its own`, () => {
    const r = new PlanRegistry();
    const first = planKind<{ id: string }>('first');
    const second = planKind<{ id: string }>('second');
    for (let i = 1; i <= KEPT_PLANS + 1; i++) r.put(first, `p${i}`, { id: `p${i}` });
    r.put(second, 'q1', { id: 'q1' });
    expect(r.get(first, 'p1')).toBeUndefined();
    for (let i = 2; i <= KEPT_PLANS + 1; i++) expect(r.get(first, `p${i}`)).toEqual({ id: `p${i}` });
    expect(r.get(second, 'q1')).toEqual({ id: 'q1' });
    expect(r.get(second, 'p2')).toBeUndefined();
  });

  it('is one registry per engine', () => {
    const e = openEngine();
    expect(plansOf(e)).toBe(plansOf(e));
  });
});
