/**
 * `npm run bench -- pg-feed [--rounds N] [--calls N] [--json]`
 *
 * What PostgreSQL's change feed (core/store/pg/pg-feed*.ts) costs a PgStore:
 * - a catch-up when nothing changed (the derived indexes call it before each read: one round trip);
 * - a catch-up after another connection saved one memory (the check, the rows, the memory's existence);
 * - a write with the feed's triggers against the same write with them disabled, alternating rounds:
 *   `save` (an update row) and `logAccesses` of one memory (an access row).
 * Figures are microseconds per call: the median over rounds of each round's mean.
 *
 * The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster (support/pg-cluster.ts).
 */
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { accessRecord, createMemory, type Memory } from '../core/model/memory.js';
import { PgStore } from '../core/store/pg/pg-store.js';
import { SyncPg } from '../core/store/pg/sync-pg.js';
import { startPg } from '../support/pg-cluster.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    calls: { type: 'string', default: '500' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const NOW = 1_780_000_000;
const MEMORIES = 2_000;
const SCHEMA = 'bench_pg_feed';

const server = startPg();
const admin = SyncPg.connect(server.url);
admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
const url = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA}`;
const reader = PgStore.open(url, { create: true, clock: fixedClock(NOW) });
const writer = PgStore.open(url, { clock: fixedClock(NOW) });

/** Microseconds per call of fn, over `calls` calls. */
function perCall(fn: (i: number) => void): number {
  const t = performance.now();
  for (let i = 0; i < calls; i++) fn(i);
  return ((performance.now() - t) * 1000) / calls;
}

const triggers = (on: boolean) => {
  for (const table of ['memories', 'memory_edges']) admin.query(`ALTER TABLE ${SCHEMA}.${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
};

try {
  const memories: Memory[] = [];
  writer.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) {
      const m = createMemory({ content: `memory ${i} ${'text '.repeat(30)}` }, NOW);
      writer.add(m, null);
      memories.push(m);
    }
  });
  reader.catchUp();
  const at = (i: number) => memories[(i * 7919) % MEMORIES]!;
  const quiet: number[] = [];
  const afterOne: number[] = [];
  const save: Record<'feed' | 'none', number[]> = { feed: [], none: [] };
  const access: Record<'feed' | 'none', number[]> = { feed: [], none: [] };
  for (let r = 0; r < rounds; r++) {
    quiet.push(perCall(() => reader.catchUp()));
    let spent = 0;
    for (let i = 0; i < calls; i++) {
      writer.save({ ...at(i), content: `edited ${r}.${i}` });
      const t = performance.now();
      reader.catchUp();
      spent += performance.now() - t;
    }
    afterOne.push((spent * 1000) / calls);
    for (const mode of r % 2 === 0 ? (['feed', 'none'] as const) : (['none', 'feed'] as const)) {
      triggers(mode === 'feed');
      save[mode].push(perCall((i) => writer.save({ ...at(i), content: `saved ${mode} ${r}.${i}` })));
      access[mode].push(perCall((i) => writer.logAccesses([{ id: at(i).id, record: accessRecord(NOW + i, 'recalled', { query: 'q' }) }])));
    }
    triggers(true);
    reader.catchUp();
    log(`round ${r + 1}/${rounds}: catch-up quiet ${quiet[r]!.toFixed(0)} µs, after one commit ${afterOne[r]!.toFixed(0)} µs; save ${save.feed[r]!.toFixed(0)} / ${save.none[r]!.toFixed(0)} µs, access ${access.feed[r]!.toFixed(0)} / ${access.none[r]!.toFixed(0)} µs (feed / no feed)`);
  }
  const p50 = (xs: number[]) => Number(median(xs).toFixed(1));
  const result = {
    rounds,
    calls_per_round: calls,
    memories: MEMORIES,
    server: server.throwaway ? 'throwaway cluster on a Unix socket' : 'MNEMO_TEST_PG_URL',
    catch_up_quiet_us_p50: p50(quiet),
    catch_up_after_one_commit_us_p50: p50(afterOne),
    save_us_p50: { feed: p50(save.feed), no_feed: p50(save.none) },
    log_access_us_p50: { feed: p50(access.feed), no_feed: p50(access.none) },
  };
  log(
    `median of ${rounds} rounds of ${calls}: catch-up ${result.catch_up_quiet_us_p50} µs with nothing new, ${result.catch_up_after_one_commit_us_p50} µs after one commit; ` +
      `save ${result.save_us_p50.feed} µs with the feed vs ${result.save_us_p50.no_feed} µs without; logAccesses ${result.log_access_us_p50.feed} vs ${result.log_access_us_p50.no_feed} µs`,
  );
  if (values.json) console.log(JSON.stringify(result));
} finally {
  reader.close();
  writer.close();
  admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  admin.close();
  server.stop();
}
