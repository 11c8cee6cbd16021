/**
 * Writes the small synthetic belief stream (support/belief-stream-synthetic.ts) that the calibration
 * tests read, and that `npm run bench -- beliefs` can score as a stream the dev-fitted map never saw:
 *
 *   node --import tsx scripts/make-synthetic-belief-stream.ts [--out test/fixtures/belief-stream-synthetic]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { syntheticBeliefStream } from '../support/belief-stream-synthetic.js';

const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(args.out ?? 'test/fixtures/belief-stream-synthetic');
mkdirSync(out, { recursive: true });
const stream = syntheticBeliefStream();
for (const [name, text] of Object.entries(stream)) writeFileSync(join(out, `${name}.jsonl`), text);
console.error(`wrote ${out}`);
