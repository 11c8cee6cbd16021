/**
 * The other process of `npm run bench -- live`, one role per start (argv: <role> <db> <now> …):
 * - `open-recall`: opens the store, recalls once, prints {"open_first_recall_ms"} (open to answer;
 *   the close after, which may write snapshots, is not counted), then closes;
 * - `writer <interval ms>`: commits a one-row change every interval until killed (prints "ready");
 * - `changes <n>`: commits n one-row changes, one transaction each, then exits.
 * Snapshots follow MNEMO_INDEX_SNAPSHOTS, which the bench sets per run.
 */
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { recallAndLog } from '../../core/recall/record.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';

const [role, db, nowArg, countArg] = process.argv.slice(2);
const now = Number(nowArg);
const reader = { owner: '', session_ref: 'bench-live' };

/** Edits one memory's importance (a real row change the feed and the digests both see), cycling through the store. */
function editor(store: MemoryStore): (n: number) => void {
  const ids: string[] = [];
  for (const m of store.iter()) {
    ids.push(m.id);
    if (ids.length === 5000) break;
  }
  return (n) =>
    store.transaction(() => {
      const m = store.get(ids[n % ids.length]!)!;
      m.importance = 1 + (n % 9);
      store.save(m);
    });
}

if (role === 'open-recall') {
  const t0 = performance.now();
  const engine = Engine.open(db!, { clock: fixedClock(now), onWarning: () => {} });
  recallAndLog(engine, { query: 'deploy the billing service' }, 'recalled', reader);
  const ms = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ open_first_recall_ms: ms })}\n`);
  engine.close();
} else if (role === 'writer') {
  const store = MemoryStore.open(db!, { clock: fixedClock(now) });
  const edit = editor(store);
  let n = 0;
  process.stdout.write('ready\n');
  setInterval(() => edit(n++), Number(countArg));
} else if (role === 'changes') {
  const store = MemoryStore.open(db!, { clock: fixedClock(now) });
  const edit = editor(store);
  for (let n = 0; n < Number(countArg); n++) edit(n);
  store.close();
  process.stdout.write('done\n');
} else {
  process.stderr.write(`unknown role ${role}\n`);
  process.exit(2);
}
