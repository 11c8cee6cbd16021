/**
 * One writer process of `npm run bench -- backends` (argv: <location> <owner> <now>): opens the
 * store through the library as its owner, says `ready` over IPC, and on `{ go: ms }` remembers
 * distinct memories one after another for that long, then reports how many it wrote and every
 * failure ({ written, errors, first_error }) and exits. Dedup is off: the measure is the store's
 * write path under concurrency, not the near-duplicate search, which is per-process CPU and would
 * load each writer's vector index of the whole store first.
 */
import { fixedClock } from '../../core/clock.js';
import { openStore } from '../../core/index.js';

const [location, owner, nowArg] = process.argv.slice(2);
const send = (msg: unknown) => process.send!(msg);

const memory = openStore(location!, { owner: owner!, session: 'bench-backends', clock: fixedClock(Number(nowArg)), create: false });
process.on('message', (msg: { go?: number }) => {
  if (msg.go === undefined) return;
  void write(msg.go);
});
send({ ready: true });

async function write(ms: number): Promise<void> {
  let written = 0;
  let errors = 0;
  let firstError: string | null = null;
  const until = performance.now() + ms;
  while (performance.now() < until) {
    try {
      await memory.remember({ content: `${owner} wrote note ${written + errors}: the deploy of service ${written % 17} finished after a retry`, tags: ['bench'], dedup: false });
      written += 1;
    } catch (e) {
      errors += 1;
      firstError ??= e instanceof Error ? e.message : String(e);
    }
  }
  memory.close();
  send({ written, errors, first_error: firstError });
  process.disconnect();
}
