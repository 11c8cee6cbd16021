/**
 * Child process for the crash-safety test: applies a plan to a store, pausing 1 ms between
 * operations so a kill -9 from the parent lands inside the transaction. Prints "start" first.
 */
import { readFileSync } from 'node:fs';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { applyPlan } from '../../core/reflect/apply.js';
import type { ReflectionPlan } from '../../core/reflect/types.js';

const [db, planPath, now] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath!, 'utf8')) as ReflectionPlan;
const engine = Engine.open(db!, { clock: fixedClock(Number(now)), onWarning: () => {} });
const pause = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write('start\n');
await applyPlan(engine, plan, { onProgress: () => Atomics.wait(pause, 0, 0, 1) });
engine.close();
process.stdout.write('done\n');
