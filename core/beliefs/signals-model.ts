/**
 * The probability that a belief's answer is right, from its signals (answer-signals.ts): logistic
 * regression on the standardised features, fitted by maximum likelihood with a small ridge penalty.
 * Where Platt scaling (calibration.ts) only rescales the model's p, and so can never reorder two
 * answers, this model can rank an answer with one fresh report below an answer with four old agreeing
 * ones at the same p: it *discriminates*, which is what a curator reviewing the least certain
 * answers needs. With only `logit_p` it is Platt scaling.
 *
 * It is fitted once, offline, on the dev stream (scripts/fit-belief-signals.ts) and stored in
 * signals-fitted.ts; nothing is fitted at run time.
 */

export interface SignalsModel {
  /** Feature names, in the order of `mean`, `scale` and `weights`. */
  features: readonly string[];
  /** Standardisation: x' = (x − mean) / scale. */
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  intercept: number;
}

export interface LabelledFeatures {
  x: readonly number[];
  correct: boolean;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function signalsProbability(model: SignalsModel, x: readonly number[]): number {
  let z = model.intercept;
  for (let i = 0; i < model.weights.length; i++) z += (model.weights[i]! * (x[i]! - model.mean[i]!)) / model.scale[i]!;
  return sigmoid(z);
}

/** Each feature's share of the log-odds against an average answer: what moved this answer's p (for "why"). */
export function signalContributions(model: SignalsModel, x: readonly number[]): { feature: string; log_odds: number }[] {
  return model.features.map((feature, i) => ({ feature, log_odds: (model.weights[i]! * (x[i]! - model.mean[i]!)) / model.scale[i]! }));
}

/** Solves A·x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    const d = m[c]![c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** Mean log loss plus the ridge term, for the step-halving check. */
function objective(z: readonly number[][], y: readonly number[], w: readonly number[], ridge: number): number {
  let sum = 0;
  for (let i = 0; i < z.length; i++) {
    let s = 0;
    for (let k = 0; k < w.length; k++) s += w[k]! * z[i]![k]!;
    sum += Math.max(s, 0) + Math.log1p(Math.exp(-Math.abs(s))) - y[i]! * s;
  }
  let pen = 0;
  for (let k = 1; k < w.length; k++) pen += w[k]! * w[k]!;
  return sum + (ridge / 2) * pen;
}

/**
 * Maximum likelihood with a ridge penalty `ridge`·|w|²/2 on the standardised weights (not the
 * intercept), by Newton's method with step halving (the objective is convex). The ridge keeps a
 * feature that is constant in the sample, or one that separates it perfectly, at a finite weight.
 */
export function fitSignalsModel(features: readonly string[], samples: readonly LabelledFeatures[], ridge = 1, iterations = 100): SignalsModel {
  const k = features.length;
  const mean = Array.from({ length: k }, (_, j) => samples.reduce((s, x) => s + x.x[j]!, 0) / Math.max(1, samples.length));
  const scale = Array.from({ length: k }, (_, j) => {
    const v = samples.reduce((s, x) => s + (x.x[j]! - mean[j]!) ** 2, 0) / Math.max(1, samples.length);
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  // Column 0 is the intercept.
  const z = samples.map((s) => [1, ...s.x.map((x, j) => (x - mean[j]!) / scale[j]!)]);
  const y = samples.map((s) => (s.correct ? 1 : 0));
  let w = new Array<number>(k + 1).fill(0);
  let loss = objective(z, y, w, ridge);
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(k + 1).fill(0);
    const h = Array.from({ length: k + 1 }, () => new Array<number>(k + 1).fill(0));
    for (let i = 0; i < z.length; i++) {
      let s = 0;
      for (let a = 0; a <= k; a++) s += w[a]! * z[i]![a]!;
      const q = sigmoid(s);
      const wq = q * (1 - q);
      for (let a = 0; a <= k; a++) {
        g[a]! += (q - y[i]!) * z[i]![a]!;
        for (let b = a; b <= k; b++) h[a]![b]! += wq * z[i]![a]! * z[i]![b]!;
      }
    }
    for (let a = 0; a <= k; a++) {
      for (let b = 0; b < a; b++) h[a]![b] = h[b]![a]!;
      if (a > 0) {
        g[a]! += ridge * w[a]!;
        h[a]![a]! += ridge;
      } else {
        h[a]![a]! += 1e-9;
      }
    }
    let step = solve(h, g);
    let next = w.map((x, a) => x - step[a]!);
    let nextLoss = objective(z, y, next, ridge);
    for (let halvings = 0; !(nextLoss <= loss) && halvings < 40; halvings++) {
      step = step.map((s) => s / 2);
      next = w.map((x, a) => x - step[a]!);
      nextLoss = objective(z, y, next, ridge);
    }
    if (!(nextLoss <= loss)) break;
    const improvement = loss - nextLoss;
    w = next;
    loss = nextLoss;
    if (improvement < 1e-12) break;
  }
  return { features, mean, scale, weights: w.slice(1), intercept: w[0]! };
}
