/** Verbal ladders (`descriptors._LADDERS`): agents speak in bands, the store keeps numbers. */
import { badInput } from '../errors.js';

export const LADDERS = {
  importance: { CRITICAL: 10, HIGH: 8, MEDIUM: 5, LOW: 3, TRIVIAL: 1 },
  salience: { PIVOTAL: 1.0, NOTABLE: 0.5, ROUTINE: 0.3, NONE: 0.0 },
  confidence: { CERTAIN: 1.0, CONFIDENT: 0.75, TENTATIVE: 0.5, UNCERTAIN: 0.25 },
  edge_weight: { STRONG: 1.0, MODERATE: 0.6, WEAK: 0.3 },
} as const;
export type LadderName = keyof typeof LADDERS;

/** Maps a label to its number; an unknown label is an error (there is no fallback). */
export function toNumeric(ladder: LadderName, label: string): number {
  const bands = LADDERS[ladder] as Record<string, number>;
  const key = label.trim().toUpperCase();
  const value = bands[key];
  if (value === undefined) {
    throw badInput(`unknown ${ladder} label ${JSON.stringify(label)}; expected ${Object.keys(bands).join(' | ')}`, { field: ladder });
  }
  return value;
}

/** The nearest band to a number; ties go to the higher band. */
export function toLabel(ladder: LadderName, value: number): string {
  const bands = Object.entries(LADDERS[ladder] as Record<string, number>);
  let best = bands[0]!;
  for (const band of bands) {
    const d = Math.abs(band[1] - value);
    const bestD = Math.abs(best[1] - value);
    if (d < bestD || (d === bestD && band[1] > best[1])) best = band;
  }
  return best[0];
}
