/**
 * Child process for the snapshot crash test: opens the store (its indexes come from the sidecar),
 * then writes a new snapshot of the keyword index one part-chunk at a time, 30 ms apart, printing
 * "chunk" after each, so a kill -9 from the parent lands between two of them.
 */
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { keywordIndex } from '../../core/recall/mnemo/stages.js';

const [db, now] = process.argv.slice(2);
const engine = Engine.open(db!, { clock: fixedClock(Number(now)), onWarning: () => {} });
const index = keywordIndex(engine, true);
const position = engine.store.feedPosition()!;
const write = engine.indexSnapshots
  .sidecar()!
  .write('recall.mnemo.bm25.porter', { format: index.snapshotFormat, conditions: index.snapshotConditions(), position: { ...position, seq: position.seq + 1000 } }, index.saveSnapshot()!, Number(now))!;
const next = (): void => {
  if (write.step()) {
    process.stdout.write('committed\n');
    return;
  }
  process.stdout.write('chunk\n');
  setTimeout(next, 30);
};
next();
