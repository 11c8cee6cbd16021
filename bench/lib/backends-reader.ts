/**
 * One reader process of `npm run bench -- backends --replica` (argv: <location> <now> <seed>
 * [replica]): opens the PostgreSQL store read-only (reading from `replica` when given), loads its
 * recall indexes, and says `opened` over IPC; on `{ go: ms }` it reads for that long, a read being
 * what a workbench or an agent reading does: an explain (one feed check, the indexes patched from
 * the rows other writers committed), the top hits' rows, and every fourth time a page of the
 * memory list. It reports each read's latency ({ ms: number[], errors, first_error }) and exits.
 */
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { demoQueries } from './backends-recall.js';

const [location, nowArg, seedArg, replica] = process.argv.slice(2);
const send = (msg: unknown) => process.send!(msg);
const engine = Engine.open(location!, { readonly: true, clock: fixedClock(Number(nowArg)), onWarning: () => {}, ...(replica ? { replicas: [replica] } : {}) });
const queries = demoQueries(engine, 200, Number(seedArg));
for (const q of queries.slice(0, 10)) explain(engine, { query: q, k: 10, hops: 1 });

function read(n: number): void {
  const res = explain(engine, { query: queries[n % queries.length]!, k: 10, hops: 1 });
  engine.store.getMany(res.rows.slice(0, 5).map((r) => r.id));
  if (n % 4 === 0) engine.store.queries.listMemories({ archived: 'live', sort: 'rowid', dir: 'desc', offset: 0, limit: 50 });
}

process.on('message', (msg: { go?: number }) => {
  if (msg.go === undefined) return;
  const ms: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const until = performance.now() + msg.go;
  for (let n = 0; performance.now() < until; n++) {
    const t0 = performance.now();
    try {
      read(n);
      ms.push(performance.now() - t0);
    } catch (e) {
      errors++;
      firstError ??= e instanceof Error ? e.message : String(e);
    }
  }
  engine.close();
  send({ ms, errors, first_error: firstError });
  process.disconnect();
});
send({ opened: true });
