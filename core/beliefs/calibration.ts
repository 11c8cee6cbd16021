/**
 * Calibration of a belief's headline probability: the probability the model gives its most likely
 * value, mapped so that "0.8" means right about 80 % of the time. The Bayesian update is sharp about
 * which value is current but, with a 1/|V| novelty prior and entropy decay, it spreads mass thinly:
 * on the belief-stream dev set answers given p ≈ 0.55 were right 78 % of the time.
 *
 * The map is isotonic (pool-adjacent-violators): the only assumption is that a higher model
 * probability never means a lower chance of being right, so it cannot reorder answers, and it has
 * no shape to choose. It is fitted once, offline, on the dev stream (scripts/fit-belief-calibration.ts),
 * and stored with the constants (calibration-fitted.ts); nothing is fitted at run time.
 */

/** Points (model p, calibrated p), ascending in both; between them the map is linear. */
export type CalibrationKnots = readonly (readonly [number, number])[];

export interface CalibrationSample {
  /** The model's probability of its answer. */
  p: number;
  /** Whether the answer was right. */
  correct: boolean;
}

/**
 * Pool-adjacent-violators: the non-decreasing step function of p that is closest (least squares)
 * to the 0/1 outcomes. Each pooled block becomes one knot at the middle of its p range, so the map
 * interpolates between block means instead of jumping. Blocks smaller than `minBlock` answers are
 * pooled with a neighbour (merging two non-decreasing neighbours keeps the order): a block of three
 * answers says little, and on held-out entities fewer, larger blocks calibrated better.
 */
export function fitIsotonic(samples: readonly CalibrationSample[], minBlock = 20): CalibrationKnots {
  const sorted = [...samples].sort((a, b) => a.p - b.p);
  const blocks: { sum: number; n: number; lo: number; hi: number }[] = [];
  const merge = (i: number) => {
    const a = blocks[i]!;
    const b = blocks[i + 1]!;
    blocks.splice(i, 2, { sum: a.sum + b.sum, n: a.n + b.n, lo: a.lo, hi: b.hi });
  };
  for (const s of sorted) {
    blocks.push({ sum: s.correct ? 1 : 0, n: 1, lo: s.p, hi: s.p });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n > blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n) {
      merge(blocks.length - 2);
    }
  }
  for (let i = 0; i < blocks.length && blocks.length > 1; ) {
    if (blocks[i]!.n >= minBlock) {
      i++;
      continue;
    }
    merge(i + 1 < blocks.length ? i : i - 1);
    i = Math.max(0, i - 1);
  }
  return blocks.map((b) => [(b.lo + b.hi) / 2, b.sum / b.n] as const);
}

/** The calibrated probability: linear between knots, the end knots' values beyond them, 0 stays 0 (no answer). */
export function calibrate(knots: CalibrationKnots, p: number): number {
  if (p <= 0 || knots.length === 0) return Math.max(0, p);
  const first = knots[0]!;
  const last = knots[knots.length - 1]!;
  if (p <= first[0]) return first[1];
  if (p >= last[0]) return last[1];
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid]![0] <= p) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = knots[lo]!;
  const [x1, y1] = knots[hi]!;
  return x1 === x0 ? y1 : y0 + ((p - x0) / (x1 - x0)) * (y1 - y0);
}

export interface ReliabilityBin {
  /** Bin bounds in predicted probability. */
  lo: number;
  hi: number;
  n: number;
  mean_p: number;
  accuracy: number;
}

/** Answers grouped by predicted probability into `bins` equal-width bins (empty bins left out). */
export function reliabilityBins(samples: readonly CalibrationSample[], bins = 10): ReliabilityBin[] {
  const acc = Array.from({ length: bins }, () => ({ n: 0, p: 0, right: 0 }));
  for (const s of samples) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor(s.p * bins)));
    acc[i]!.n++;
    acc[i]!.p += s.p;
    acc[i]!.right += s.correct ? 1 : 0;
  }
  return acc.flatMap((b, i) => (b.n ? [{ lo: i / bins, hi: (i + 1) / bins, n: b.n, mean_p: b.p / b.n, accuracy: b.right / b.n }] : []));
}

/** Expected calibration error: the answer-weighted mean gap between predicted p and accuracy per bin. */
export function expectedCalibrationError(samples: readonly CalibrationSample[], bins = 10): number {
  if (samples.length === 0) return 0;
  return reliabilityBins(samples, bins).reduce((sum, b) => sum + (b.n / samples.length) * Math.abs(b.mean_p - b.accuracy), 0);
}

/**
 * The belief-stream scorer's Brier term: (1 − p)² with p the probability given to the true value,
 * taken as 0 when the answer is wrong. It is one-sided, so it can never go below 1 − accuracy.
 */
export function answerBrier(samples: readonly CalibrationSample[]): number {
  if (samples.length === 0) return 0;
  return samples.reduce((sum, s) => sum + (1 - (s.correct ? s.p : 0)) ** 2, 0) / samples.length;
}
