import { describe, expect, it } from 'vitest';
import type { KnobSpec } from '../../core/tune/knob-space.js';
import { maximise } from '../../core/tune/optimiser.js';

const box: KnobSpec[] = [
  { name: 'x', kind: 'continuous', min: -2, max: 2 },
  { name: 'y', kind: 'continuous', min: 0, max: 10 },
  { name: 'n', kind: 'integer', min: 0, max: 20 },
];
/** Maximum 0 at x = 0.37, y = 7.2, n = 13. */
const bowl = ([x, y, n]: readonly number[]) => -((x! - 0.37) ** 2) - 0.1 * (y! - 7.2) ** 2 - 0.05 * (n! - 13) ** 2;

describe('maximise (seeded coordinate search)', () => {
  it('finds the optimum of a known function within tolerance, integer coordinates staying integer', async () => {
    const seen: number[][] = [];
    const r = await maximise({ specs: box, start: [-1.5, 1, 2], objective: (p) => (seen.push([...p]), bowl(p)), seed: 7, maxEvaluations: 500, minStep: 1 / 512 });
    expect(r.best[0]).toBeCloseTo(0.37, 1);
    expect(Math.abs(r.best[1]! - 7.2)).toBeLessThan(0.1);
    expect(r.best[2]).toBe(13);
    expect(r.stopped).toBe('converged');
    for (const p of seen) {
      expect(Number.isInteger(p[2])).toBe(true);
      expect(p[0]).toBeGreaterThanOrEqual(-2);
      expect(p[0]).toBeLessThanOrEqual(2);
    }
  });

  it('is deterministic for a seed, and the trace is the best so far, never falling', async () => {
    const run = (seed: number) => maximise({ specs: box, start: [0, 0, 0], objective: bowl, seed, maxEvaluations: 40 });
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(a.evaluations).toBe(40);
    expect(a.stopped).toBe('budget');
    for (let i = 1; i < a.trace.length; i++) expect(a.trace[i]!).toBeGreaterThanOrEqual(a.trace[i - 1]!);
    expect(a.trace[0]).toBe(bowl([0, 0, 0]));
  });

  it('never evaluates the same point twice', async () => {
    const keys = new Set<string>();
    const onlyInts: KnobSpec[] = [{ name: 'n', kind: 'integer', min: 0, max: 3 }];
    const r = await maximise({ specs: onlyInts, start: [0], objective: ([n]) => (expect(keys.has(String(n))).toBe(false), keys.add(String(n)), -((n! - 2) ** 2)), seed: 1, maxEvaluations: 50 });
    expect(r.best).toEqual([2]);
    expect(r.evaluations).toBe(keys.size);
  });
});
