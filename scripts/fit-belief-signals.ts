/**
 * Fits the belief signals models (core/beliefs/signals-model.ts) on a belief-stream dev set and
 * writes them, with the dev figures, to core/beliefs/signals-fitted.ts:
 *
 *   node --import tsx scripts/fit-belief-signals.ts --data <belief-stream dev dir>
 *
 * One model per belief profile and read mode; the work is in support/belief-signals-fit.ts.
 * Deterministic: the same data writes the same file.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readBeliefStream } from '../support/belief-calibration-fit.js';
import { fitSignals, signalsFileText } from '../support/belief-signals-fit.js';

const { values: args } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' } } });
if (!args.data) {
  console.error('usage: node --import tsx scripts/fit-belief-signals.ts --data <belief-stream dev dir> [--out core/beliefs/signals-fitted.ts]');
  process.exit(2);
}
const out = resolve(args.out ?? 'core/beliefs/signals-fitted.ts');
writeFileSync(out, signalsFileText(fitSignals(readBeliefStream(resolve(args.data)), (line) => console.error(line))));
console.error(`wrote ${out}`);
