import { describe, expect, it } from 'vitest';
import { lambdaPerSecond, PAPER_CONFIG } from '../../core/beliefs/config.js';
import { decay, OTHER, posterior } from '../../core/beliefs/equations.js';
import { estimateAt } from '../../core/beliefs/hindsight.js';

const DAY = 86400;
const lambda = lambdaPerSecond(PAPER_CONFIG);

describe('hindsight (forward-backward over the delta log)', () => {
  it('with nothing after T it is the forward filter over the log vocabulary', () => {
    const obs = [{ value: 'A', t: 0, epsilon: 0.1 }];
    const p = estimateAt(obs, 0, lambda);
    expect(p['A']).toBeCloseTo(0.9, 12); // uniform {other, A} updated by eps .1
    const later = estimateAt(obs, 30 * DAY, lambda);
    expect(later['A']).toBeCloseTo(0.5 * 0.9 + 0.25, 10);
  });

  it('is time-symmetric: a report d after T weighs like one d before T', () => {
    const before = estimateAt([{ value: 'A', t: -5 * DAY, epsilon: 0.2 }], 0, lambda);
    const after = estimateAt([{ value: 'A', t: 5 * DAY, epsilon: 0.2 }], 0, lambda);
    expect(after['A']).toBeCloseTo(before['A']!, 12);
    const both = estimateAt(
      [
        { value: 'A', t: -10 * DAY, epsilon: 0.1 },
        { value: 'B', t: 10 * DAY, epsilon: 0.1 },
      ],
      0,
      lambda,
    );
    expect(both['A']).toBeCloseTo(both['B']!, 12);
  });

  it('multiplies the forward and backward filters (hand computation)', () => {
    const obs = [
      { value: 'A', t: 0, epsilon: 0.1 },
      { value: 'B', t: 20 * DAY, epsilon: 0.1 },
    ];
    const V = { [OTHER]: 1 / 3, A: 1 / 3, B: 1 / 3 };
    const f = decay(posterior(V, 'A', 0.1), lambda, 10 * DAY);
    const b = decay(posterior(V, 'B', 0.1), lambda, 10 * DAY);
    const z = f[OTHER]! * b[OTHER]! + f['A']! * b['A']! + f['B']! * b['B']!;
    const p = estimateAt(obs, 10 * DAY, lambda);
    expect(p['A']).toBeCloseTo((f['A']! * b['A']!) / z, 12);
    expect(p['B']).toBeCloseTo((f['B']! * b['B']!) / z, 12);
  });

  it('a value first reported soon after T can be the estimate at T', () => {
    const obs = [
      { value: 'Lyon', t: 0, epsilon: 0.1 },
      { value: 'Lyon', t: 30 * DAY, epsilon: 0.1 },
      { value: 'Seoul', t: 101 * DAY, epsilon: 0.12 },
      { value: 'Seoul', t: 130 * DAY, epsilon: 0.1 },
    ];
    expect(Object.entries(estimateAt(obs, 100 * DAY, lambda)).sort((a, b) => b[1] - a[1])[0]![0]).toBe('Seoul');
    expect(Object.entries(estimateAt(obs, 31 * DAY, lambda)).sort((a, b) => b[1] - a[1])[0]![0]).toBe('Lyon');
  });
});
