/**
 * Fits the belief calibration maps (core/beliefs/calibration.ts) on a belief-stream dev set and
 * writes them, with the dev figures, to core/beliefs/calibration-fitted.ts:
 *
 *   node --import tsx scripts/fit-belief-calibration.ts --data <belief-stream dev dir>
 *
 * One map per belief profile and read mode (as-of and hindsight are different estimators); the work
 * is in support/belief-calibration-fit.ts. Deterministic: the same data writes the same file.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fitCalibrations, fittedFileText, readBeliefStream } from '../support/belief-calibration-fit.js';

const { values: args } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' } } });
if (!args.data) {
  console.error('usage: node --import tsx scripts/fit-belief-calibration.ts --data <belief-stream dev dir> [--out core/beliefs/calibration-fitted.ts]');
  process.exit(2);
}
const out = resolve(args.out ?? 'core/beliefs/calibration-fitted.ts');
writeFileSync(out, fittedFileText(fitCalibrations(readBeliefStream(resolve(args.data)), (line) => console.error(line))));
console.error(`wrote ${out}`);
