/**
 * Child process for test/store/index-build-wait.test.ts: another process on the same store that
 * is building the recall indexes. `<db> <now>`: opens the store, starts building the recall
 * indexes in steps (as an agent's first recall does), and at the first step prints "building"
 * (a synchronous write) and waits for "go" on stdin; then finishes, closes (leaving every
 * snapshot), prints "done" and exits. The parent may instead kill it while it waits.
 */
import { createInterface } from 'node:readline';
import { writeSync } from 'node:fs';
import { prepareRecallIndexes } from '../../core/recall/pipeline.js';
import { profileFor } from '../../core/recall/profile.js';
import { openIndexed } from '../../support/derived-indexes.js';

const [db, nowArg] = process.argv.slice(2);
const { engine } = openIndexed(db!, Number(nowArg));
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
let first = true;
await prepareRecallIndexes(engine, profileFor('mnemo'), async () => {
  if (first) {
    first = false;
    writeSync(1, 'building\n');
    for (let line = await lines.next(); !line.done && line.value !== 'go'; line = await lines.next());
  }
  await new Promise<void>((resolve) => setImmediate(resolve));
});
engine.close();
writeSync(1, 'done\n');
process.exit(0);
