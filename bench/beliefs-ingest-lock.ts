/**
 * `npm run bench -- beliefs-ingest-lock [--size 200000] [--one] [--json]`
 *
 * How long `beliefs ingest` holds the write lock: N synthetic observations (5,000 entities × 5
 * attributes, seeded) ingested into a fresh store, timing every write transaction. Batched (the
 * default, as `beliefs.ingest` runs) or `--one` transaction (BeliefModel.ingest, as before).
 */
import { connectionOf } from '../core/store/sqlite/connection.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { beliefsOf, type Observation } from '../core/beliefs/index.js';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { tempDir } from '../support/fixture.js';

const NOW = 1_780_000_000;
const { values } = parseArgs({ options: { size: { type: 'string', default: '200000' }, one: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
const n = Number(values.size);

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const ATTRS = ['city', 'job', 'team', 'pet', 'car'];
const observations: Observation[] = Array.from({ length: n }, (_, i) => {
  const entity = `person ${Math.floor(rnd() * 5000)}`;
  const attribute = ATTRS[Math.floor(rnd() * ATTRS.length)]!;
  return { entity, attribute, value: `${attribute} ${Math.floor(rnd() * 6)}`, t: 1_700_000_000 + Math.floor(rnd() * 1000) * 86_400, reliability: 0.8, evidence: `${entity}'s ${attribute}`, source: 'bench', memory_id: null, id: null, line: i + 1 };
});

const engine = Engine.open(join(tempDir('mnemo-bench-'), 'beliefs.sqlite'), { clock: fixedClock(NOW), create: true, onWarning: () => {} });
// Time each outermost write transaction: that is how long other connections wait for the lock.
const store = engine.store;
const transaction = store.transaction.bind(store);
const held: number[] = [];
store.transaction = <T>(fn: () => T): T => {
  if (connectionOf(store).inTransaction) return fn();
  const t0 = performance.now();
  try {
    return transaction(fn);
  } finally {
    held.push(performance.now() - t0);
  }
};
const t0 = performance.now();
const res = values.one ? beliefsOf(engine).ingest(observations, NOW) : await beliefsOf(engine).ingestInBatches(observations, NOW);
const total = (performance.now() - t0) / 1000;
engine.close();
const sorted = [...held].sort((a, b) => a - b);
const result = {
  bench: 'beliefs-ingest-lock',
  observations: n,
  mode: values.one ? 'one transaction' : 'batched',
  total_s: Number(total.toFixed(1)),
  transactions: held.length,
  longest_lock_ms: Math.round(sorted[sorted.length - 1]!),
  median_lock_ms: Math.round(sorted[sorted.length >> 1]!),
  dimensions: res.dimensions_touched,
  first_lock_ms: Math.round(held[0]!),
  last_lock_ms: Math.round(held[held.length - 1]!),
};
if (!values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else process.stdout.write(`${JSON.stringify(result)}\n`);
