// Child process for the two-process test: writes N memories through the engine, one change each.
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';

const [path, n] = process.argv.slice(2);
const engine = Engine.open(path!, {});
let errors = 0;
for (let i = 0; i < Number(n); i++) {
  try {
    await addMemory(engine, { content: `writer memory number ${i} about deploying service ${i % 17}`, tags: ['writer'] });
  } catch (err) {
    errors++;
    process.stderr.write(`write ${i}: ${(err as Error).message}\n`);
  }
}
engine.close();
process.stdout.write(JSON.stringify({ written: Number(n) - errors, errors }));
