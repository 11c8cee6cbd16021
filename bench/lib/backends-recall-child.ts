/**
 * One backend's warm engine for `npm run bench -- backends`' recall phase, in a process of its own
 * (argv: <location> <now>): two engines of a million memories each do not fit one V8 heap, and the
 * phase ended there in "JavaScript heap out of memory". The parent (backends-recall.ts) sends
 * requests over the IPC channel and the child answers each with one message:
 * - `{ kind: 'queries', n, seed }`: the demo queries made from this store;
 * - `{ kind: 'explain', queries }`: each explained once (k = 10, hops = 1), with its time in ms.
 * It opens the store before its first answer and closes it when the channel closes.
 */
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { demoQueries } from './backends-recall.js';

export type RecallChildRequest = { kind: 'queries'; n: number; seed: number } | { kind: 'explain'; queries: string[] };
export type RecallChildReply = { kind: 'queries'; queries: string[] } | { kind: 'explain'; ms: number[] } | { kind: 'error'; message: string };

const [location, nowArg] = process.argv.slice(2);
const engine = Engine.open(location!, { readonly: true, clock: fixedClock(Number(nowArg)), onWarning: () => {} });

function answer(request: RecallChildRequest): RecallChildReply {
  if (request.kind === 'queries') return { kind: 'queries', queries: demoQueries(engine, request.n, request.seed) };
  const ms = request.queries.map((query) => {
    const t0 = performance.now();
    explain(engine, { query, k: 10, hops: 1 });
    return performance.now() - t0;
  });
  return { kind: 'explain', ms };
}

process.on('message', (request: RecallChildRequest) => {
  let reply: RecallChildReply;
  try {
    reply = answer(request);
  } catch (e) {
    reply = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
  }
  process.send!(reply);
});
process.on('disconnect', () => {
  engine.close();
  process.exit(0);
});
