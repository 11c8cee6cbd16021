/**
 * `npm run bench -- pg-feed-images [--rounds N] [--updates N] [--json]`
 *
 * What PostgreSQL's change feed (core/store/pg/pg-feed-ddl.ts) costs the server per write, with the
 * statements run in a server-side loop (one round trip per batch), so the bridge's and the
 * client's noise stays out of it: an `update` (a column other than the access ones changes: its
 * feed row keeps the whole old row) and an `access` (the counters and nooa's `data` with a full
 * 64-entry ring change: its row keeps the old `data`), each with the feed's triggers and with
 * them disabled, alternating within each round. Also the feed's bytes per row of each op, and
 * (where the build has time travel) how long PgStore.openAsOf takes to roll every loop's rows back.
 * Run it on two builds (e.g. before and after a change to the triggers) in the same session.
 * Figures are microseconds per updated row: the median over rounds.
 *
 * The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster (support/pg-cluster.ts).
 */
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { createMemory } from '../core/model/memory.js';
import { PgStore } from '../core/store/pg/pg-store.js';
import { SyncPg } from '../core/store/pg/sync-pg.js';
import { startPg } from '../support/pg-cluster.js';
import { median } from './lib/stats.js';
import { countMemories } from '../core/store/queries/memory-lookups.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    updates: { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const updates = Number(values.updates);
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const NOW = 1_780_000_000;
const MEMORIES = 500;
const SCHEMA = 'bench_pg_feed_images';

const server = startPg();
const admin = SyncPg.connect(server.url);
admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
const url = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA}`;
const store = PgStore.open(url, { create: true, clock: fixedClock(NOW) });
const triggers = (on: boolean) => {
  for (const table of ['memories', 'memory_edges']) admin.query(`ALTER TABLE ${SCHEMA}.${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
};

/** The SQL of one write of memory number `k` (a plpgsql expression over the loop's `i`). */
const WRITES = {
  update: `UPDATE ${SCHEMA}.memories SET importance = importance + 0.001 WHERE id = ids[1 + i % ${MEMORIES}]`,
  access: `UPDATE ${SCHEMA}.memories SET access_count = access_count + 1, last_accessed = last_accessed + 1,
             data = jsonb_set(data::jsonb, '{access_count}', to_jsonb(coalesce((data::jsonb->>'access_count')::int, 0) + 1))::text
           WHERE id = ids[1 + i % ${MEMORIES}]`,
} as const;

/** Microseconds per row of `updates` writes in one server-side loop. */
function perRow(kind: keyof typeof WRITES): number {
  const t = performance.now();
  admin.query(`DO $$ DECLARE ids text[] := ARRAY(SELECT id FROM ${SCHEMA}.memories ORDER BY rowid); BEGIN
    FOR i IN 1..${updates} LOOP ${WRITES[kind]}; END LOOP; END $$`);
  return ((performance.now() - t) * 1000) / updates;
}

try {
  store.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) store.add(createMemory({ content: `memory ${i} ${'text '.repeat(40)}` }, NOW), null);
  });
  // A full ring of 64 entries, as a memory recalled often has (written with the triggers off: not a change).
  triggers(false);
  admin.query(`UPDATE ${SCHEMA}.memories SET data = jsonb_set(data::jsonb, '{access_log}', (SELECT jsonb_agg(jsonb_build_object(
      'ts', ${NOW} + g, 'channel', 'recalled', 'query', 'why did the deploy fail', 'rank', 1, 'score', 0.5, 'reader_owner', '',
      'session_ref', NULL, 'trace_ref', NULL, 'components', NULL)) FROM generate_series(1, 64) g))::text`);
  triggers(true);
  // A warm-up loop of each, not counted (the first touches every page cold).
  perRow('update');
  perRow('access');
  const ms: Record<keyof typeof WRITES, { feed: number[]; none: number[] }> = { update: { feed: [], none: [] }, access: { feed: [], none: [] } };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 === 0 ? (['feed', 'none'] as const) : (['none', 'feed'] as const)) {
      triggers(mode === 'feed');
      for (const kind of ['update', 'access'] as const) ms[kind][mode].push(perRow(kind));
    }
    triggers(true);
    log(`round ${r + 1}/${rounds}: update ${ms.update.feed[r]!.toFixed(1)} / ${ms.update.none[r]!.toFixed(1)} µs, access ${ms.access.feed[r]!.toFixed(1)} / ${ms.access.none[r]!.toFixed(1)} µs (feed / no feed)`);
  }
  // The loops ran without the store's clock, so the server's stamps them after NOW: an instant just
  // after the memories were added rolls every loop's rows back (where the build has time travel).
  let asOf: { ms: number; rolled_back: number } | null = null;
  if (typeof (PgStore as { openAsOf?: unknown }).openAsOf === 'function') {
    const t = performance.now();
    const past = PgStore.openAsOf(url, NOW + 1, { clock: fixedClock(NOW + 1) });
    const count = countMemories(past);
    asOf = { ms: Number((performance.now() - t).toFixed(0)), rolled_back: past.history!.rolled_back };
    past.close();
    if (count !== MEMORIES) throw new Error(`the past store shows ${count} memories, not ${MEMORIES}`);
  }
  const bytes = Object.fromEntries(
    admin.query<{ op: string; b: string }>(`SELECT op, round(avg(pg_column_size(f.*)))::text AS b FROM ${SCHEMA}.mnemo_pg_feed f GROUP BY op ORDER BY op`).map((r) => [r.op, Number(r.b)]),
  );
  const [size] = admin.query<{ b: string; n: string }>(`SELECT pg_total_relation_size('${SCHEMA}.mnemo_pg_feed')::text AS b, count(*)::text AS n FROM ${SCHEMA}.mnemo_pg_feed`);
  const p50 = (xs: number[]) => Number(median(xs).toFixed(1));
  const result = {
    rounds,
    updates_per_round: updates,
    memories: MEMORIES,
    server: server.throwaway ? 'throwaway cluster on a Unix socket' : 'MNEMO_TEST_PG_URL',
    update_us_per_row_p50: { feed: p50(ms.update.feed), no_feed: p50(ms.update.none) },
    access_us_per_row_p50: { feed: p50(ms.access.feed), no_feed: p50(ms.access.none) },
    feed_row_bytes_by_op: bytes,
    feed_bytes_per_row: Math.round(Number(size!.b) / Number(size!.n)),
    open_as_of: asOf,
  };
  log(
    `median of ${rounds} rounds of ${updates}: update ${result.update_us_per_row_p50.feed} µs/row with the feed vs ${result.update_us_per_row_p50.no_feed} without; ` +
      `access ${result.access_us_per_row_p50.feed} vs ${result.access_us_per_row_p50.no_feed}; feed row bytes ${JSON.stringify(bytes)}, ${result.feed_bytes_per_row} B/row on disk` +
      (asOf ? `; openAsOf rolling back ${asOf.rolled_back} rows: ${asOf.ms} ms` : ''),
  );
  if (values.json) console.log(JSON.stringify(result));
} finally {
  store.close();
  admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  admin.close();
  server.stop();
}
