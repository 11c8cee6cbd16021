/**
 * `npm run bench -- time-travel [--size 100000] [--changes 5000] [--instants 10] [--seed 16] [--json]`
 *
 * Issue #16's time-travel target: on a copy of the demo store, scripted writes make a history
 * (edits, archives and restores, links and unlinks, accesses, adds and deletes, one simulated
 * second apart), then the Memories list (200 rows) and the overview graph (2000 nodes) are read as
 * of random instants of that history, through the API as the workbench calls them. Each instant is
 * a new one, so every read pays for rolling the store back to it. Target: list + graph ≤ 1 s.
 * The same two reads of the store as it is now are the baseline.
 */
import { parseArgs } from 'node:util';
import { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import type { Clock } from '../core/clock.js';
import { createMemory } from '../core/model/memory.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';
import { rng } from '../core/demo/generate.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    changes: { type: 'string', default: '5000' },
    instants: { type: 'string', default: '10' },
    seed: { type: 'string', default: '16' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};
const NOW = 1_780_000_000;
const changes = Number(values.changes);

const rand = rng(Number(values.seed));

let t = NOW;
const clock: Clock = { now: () => t };
const path = demoStoreCopy(Number(values.size), NOW, log);
const session = new ApiSession({ clock });
const engine = session.open(path);
const store = engine.store;
// Only the ids: every memory as an object (content, data, ring) was 4 GB of heap at a million memories.
const ids = store.queries.listIds({ archived: 'all' }, Number.MAX_SAFE_INTEGER).ids;
const installed = t;
log(`writing ${changes.toLocaleString()} changes, one simulated second apart…`);
const t0 = performance.now();
for (let n = 0; n < changes; n++) {
  t += 1;
  const id = ids[Math.floor(rand() * ids.length)]!;
  const r = rand();
  if (r < 0.3) {
    const m = store.get(id);
    if (!m) continue;
    m.importance = Math.round(rand() * 100) / 10;
    m.content = `${m.content} (edited ${n})`;
    store.save(m);
  } else if (r < 0.4) {
    if (!store.setArchived(id, true)) store.setArchived(id, false);
  } else if (r < 0.55) {
    const dst = ids[Math.floor(rand() * ids.length)]!;
    if (dst !== id && store.exists(id) && store.exists(dst)) store.addEdge(id, dst, 'related', 0.5);
  } else if (r < 0.6) {
    const e = store.neighbors(id)[0];
    if (e) store.removeEdge(id, e.target_id, e.type);
  } else if (r < 0.9) {
    if (store.exists(id)) {
      store.logAccesses([
        { id, record: { ts: t, channel: 'recalled', reader_owner: '', session_ref: null, trace_ref: null, query: null, score: null, rank: null, components: null } },
      ]);
    }
  } else if (r < 0.97) {
    const m = createMemory({ content: `new memory ${n}`, importance: 5 }, t);
    store.add(m, null);
    ids.push(m.id);
  } else {
    store.delete(id);
  }
}
const writeS = (performance.now() - t0) / 1000;
const end = t;
log(`  ${writeS.toFixed(1)} s; feed at ${store.feedPosition()?.seq} rows`);

async function listAndGraph(at: number | undefined): Promise<{ ms: number; rolled_back: number }> {
  const start = performance.now();
  const a = at === undefined ? {} : { at };
  await call(session, 'memory.list', { ...a, limit: 200 });
  const g = await call(session, 'graph.view', { ...a, limit: 2000 });
  if (g.nodes.length !== 2000) throw new Error(`the graph has ${g.nodes.length} nodes, expected 2000`);
  const ms = performance.now() - start;
  return { ms, rolled_back: at === undefined ? 0 : (await call(session, 'store.asOf', { at })).rolled_back };
}

const live: number[] = [];
for (let i = 0; i < 3; i++) live.push((await listAndGraph(undefined)).ms);
log(`now: list + graph ${median(live).toFixed(0)} ms (median of 3)`);

const samples: { at: number; ms: number; rolled_back: number }[] = [];
for (let i = 0; i < Number(values.instants); i++) {
  const at = installed + Math.floor(rand() * (end - installed)) + 0.5;
  const r = await listAndGraph(at);
  samples.push({ at, ...r });
  log(`  as of ${new Date(at * 1000).toISOString()}: ${r.ms.toFixed(0)} ms (${r.rolled_back.toLocaleString()} changes rolled back)`);
}
const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
const result = {
  size: Number(values.size),
  changes,
  feed_rows: store.feedPosition()?.seq ?? 0,
  write_s: Number(writeS.toFixed(1)),
  live_ms: Math.round(median(live)),
  as_of_median_ms: Math.round(median(ms)),
  as_of_max_ms: Math.round(ms[ms.length - 1]!),
  within_1s: ms.filter((x) => x <= 1000).length,
  instants: samples.length,
};
log(`as of a random instant: list + graph median ${result.as_of_median_ms} ms, max ${result.as_of_max_ms} ms; ${result.within_1s} of ${result.instants} within 1 s`);
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
session.close();
