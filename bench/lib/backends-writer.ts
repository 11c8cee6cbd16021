/**
 * One writer process of `npm run bench -- backends` (argv: <location> <owner> <now>): opens the
 * store through the library as its owner and says `opened` over IPC; on `{ warm: ms }` it writes
 * for that long and says `ready` with how many it wrote (the code paths compiled, the
 * connection's statements seen: a steady state, not the start, is what the window measures); on
 * `{ go: ms }` it remembers distinct memories one after another for that long, then reports how
 * many it wrote and every failure ({ written, errors, first_error }) and exits. Dedup is off: the measure is the store's
 * write path under concurrency, not the near-duplicate search, which is per-process CPU and would
 * load each writer's vector index of the whole store first.
 */
import { fixedClock } from '../../core/clock.js';
import { openStore } from '../../core/index.js';

const [location, owner, nowArg] = process.argv.slice(2);
const send = (msg: unknown) => process.send!(msg);

const memory = openStore(location!, { owner: owner!, session: 'bench-backends', clock: fixedClock(Number(nowArg)), create: false });
let n = 0;
let errors = 0;
let firstError: string | null = null;

async function writeFor(ms: number): Promise<number> {
  let written = 0;
  const until = performance.now() + ms;
  while (performance.now() < until) {
    try {
      await memory.remember({ content: `${owner} wrote note ${n++}: the deploy of service ${n % 17} finished after a retry`, tags: ['bench'], dedup: false });
      written += 1;
    } catch (e) {
      errors += 1;
      firstError ??= e instanceof Error ? e.message : String(e);
    }
  }
  return written;
}

process.on('message', (msg: { warm?: number; go?: number }) => {
  if (msg.warm !== undefined) void writeFor(msg.warm).then((warmed) => send({ ready: true, warmed }));
  if (msg.go !== undefined) {
    void writeFor(msg.go).then((written) => {
      memory.close();
      send({ written, errors, first_error: firstError });
      process.disconnect();
    });
  }
});
send({ opened: true });
