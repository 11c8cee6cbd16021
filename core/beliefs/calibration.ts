/**
 * Calibration of a belief's headline probability: the probability the model gives its most likely
 * value, mapped so that "0.8" means right about 80 % of the time. The Bayesian update is sharp about
 * which value is current but, with a 1/|V| novelty prior and entropy decay, it spreads mass thinly:
 * on the belief-stream dev set answers given p ≈ 0.55 were right 78 % of the time (as-of).
 *
 * The map is Platt scaling: a logistic curve on the logit of the model's p, two parameters fitted
 * by maximum likelihood. Two parameters cannot memorise a data set, and with a positive slope the
 * map is monotone, so it never reorders answers. An isotonic map (one step per block of answers)
 * was used before; on held-out entities it calibrated worse (ECE 0.028 against 0.015 in hindsight,
 * 0.061 against 0.035 as-of) because its end blocks follow a few dozen answers each.
 *
 * It is fitted once, offline, on the dev stream (scripts/fit-belief-calibration.ts), and stored with
 * the constants (calibration-fitted.ts); nothing is fitted at run time.
 */

/** calibrated p = σ(slope · logit(p) + intercept). */
export interface CalibrationMap {
  slope: number;
  intercept: number;
}

/** Points (model p, calibrated p) along a map, for drawing it. */
export type CalibrationCurve = readonly (readonly [number, number])[];

export interface CalibrationSample {
  /** The model's probability of its answer (0: no answer). */
  p: number;
  /** Whether the answer was right. */
  correct: boolean;
}

/**
 * How close to 0 or 1 a model p is taken to be. The model drops values below its prune floor (0.01
 * in both profiles), so a p of 1 only says "at least 0.99"; treating it as 1 − 10⁻⁶ gave such answers
 * a logit five times any other and let them set the slope alone (nous-code as-of: slope 0.07).
 */
const EDGE = 0.01;
const logit = (p: number) => {
  const q = Math.min(1 - EDGE, Math.max(EDGE, p));
  return Math.log(q / (1 - q));
};
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Mean log loss of σ(a · x + b) against the outcomes. */
function logLoss(points: readonly { x: number; y: number }[], a: number, b: number): number {
  let sum = 0;
  for (const { x, y } of points) {
    const z = a * x + b;
    // log(1 + e^z) − y·z, written so that a large |z| cannot overflow
    sum += Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))) - y * z;
  }
  return sum / Math.max(1, points.length);
}

/**
 * Maximum likelihood of a right answer under σ(a · logit(p) + b), by Newton's method from (1, 0), the
 * identity map. The log loss is convex in (a, b), and each step is halved until the loss goes down,
 * so it cannot overshoot (a full step did, on answers with p = 1). "No answer" (p = 0) is left out:
 * it stays 0. A tiny ridge keeps the step defined when every answer is right.
 */
export function fitPlatt(samples: readonly CalibrationSample[], iterations = 100): CalibrationMap {
  const points = samples.filter((s) => s.p > 0).map((s) => ({ x: logit(s.p), y: s.correct ? 1 : 0 }));
  let a = 1;
  let b = 0;
  let loss = logLoss(points, a, b);
  for (let it = 0; it < iterations; it++) {
    let ga = 0, gb = 0, haa = 1e-9, hab = 0, hbb = 1e-9;
    for (const { x, y } of points) {
      const q = sigmoid(a * x + b);
      const w = q * (1 - q);
      ga += (q - y) * x;
      gb += q - y;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    let da = (hbb * ga - hab * gb) / det;
    let db = (haa * gb - hab * ga) / det;
    let next = logLoss(points, a - da, b - db);
    for (let halvings = 0; !(next <= loss) && halvings < 40; halvings++) {
      da /= 2;
      db /= 2;
      next = logLoss(points, a - da, b - db);
    }
    if (!(next <= loss)) break;
    a -= da;
    b -= db;
    const improvement = loss - next;
    loss = next;
    if (improvement < 1e-13) break;
  }
  return { slope: a, intercept: b };
}

/** The calibrated probability; 0 stays 0 (no answer). */
export function calibrate(map: CalibrationMap, p: number): number {
  if (p <= 0) return 0;
  return sigmoid(map.slope * logit(p) + map.intercept);
}

/** The map sampled at `points` evenly spaced model probabilities in (0, 1], for the reliability diagram. */
export function calibrationCurve(map: CalibrationMap, points = 50): CalibrationCurve {
  return Array.from({ length: points }, (_, i) => {
    const p = (i + 1) / points;
    return [p, calibrate(map, p)] as const;
  });
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
 * taken as 0 when the answer is wrong. It is one-sided, so it can never go below 1 − accuracy, and
 * it is not a proper score: for calibrated answers it equals E[1 − 2q² + q³], convex for q above 2/3,
 * so spreading calibrated probabilities (more resolution) raises it there. `binaryBrier` is the
 * proper counterpart.
 */
export function answerBrier(samples: readonly CalibrationSample[]): number {
  if (samples.length === 0) return 0;
  return samples.reduce((sum, s) => sum + (1 - (s.correct ? s.p : 0)) ** 2, 0) / samples.length;
}

/** The proper Brier score of "this answer is right": mean (p − 1{right})². */
export function binaryBrier(samples: readonly CalibrationSample[]): number {
  if (samples.length === 0) return 0;
  return samples.reduce((sum, s) => sum + (s.p - (s.correct ? 1 : 0)) ** 2, 0) / samples.length;
}
