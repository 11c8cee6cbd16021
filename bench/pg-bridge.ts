/**
 * `npm run bench -- pg-bridge [--rounds N] [--queries N] [--json]`
 *
 * What the synchronous PostgreSQL bridge (core/store/pg/sync-pg.ts) costs against calling `pg`
 * asynchronously, the way an asynchronous store port would. Both read one row by primary key from
 * the same 10,000-row table over the same Unix socket, one query at a time; the rounds alternate
 * which goes first, so other work on the machine hits both alike. Figures are microseconds per
 * query: the median over rounds of each round's mean, and the per-round ratio's median. A SQLite
 * point read of the same table is printed for scale (it is not a round trip).
 *
 * The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster (support/pg-cluster.ts).
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SyncPg } from '../core/store/pg/sync-pg.js';
import { tempDir } from '../support/fixture.js';
import { startPg } from '../support/pg-cluster.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    queries: { type: 'string', default: '2000' },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const queries = Number(values.queries);
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const ROWS = 10_000;
const SELECT = 'SELECT id, content FROM bench_rows WHERE id = $1';

const server = startPg();
const bridge = SyncPg.connect(server.url);
const client = new pg.Client({ connectionString: server.url });
const sqlitePath = join(tempDir('mnemo-pg-bridge-'), 'rows.sqlite');
const sqlite = new Database(sqlitePath);
try {
  await client.connect();
  bridge.query('DROP TABLE IF EXISTS bench_rows');
  bridge.query('CREATE TABLE bench_rows (id integer PRIMARY KEY, content text NOT NULL)');
  bridge.query(`INSERT INTO bench_rows SELECT g, 'memory ' || g || repeat(' text', 40) FROM generate_series(1, ${ROWS}) g`);
  sqlite.exec('CREATE TABLE bench_rows (id INTEGER PRIMARY KEY, content TEXT NOT NULL)');
  const insert = sqlite.prepare('INSERT INTO bench_rows VALUES (?, ?)');
  sqlite.transaction(() => {
    for (let i = 1; i <= ROWS; i++) insert.run(i, `memory ${i}${' text'.repeat(40)}`);
  })();
  const sqliteSelect = sqlite.prepare('SELECT id, content FROM bench_rows WHERE id = ?');
  const idAt = (i: number) => ((i * 7919) % ROWS) + 1;

  const viaBridge = (): number => {
    const t = performance.now();
    for (let i = 0; i < queries; i++) if (bridge.query(SELECT, [idAt(i)]).length !== 1) throw new Error('bridge: row missing');
    return ((performance.now() - t) * 1000) / queries;
  };
  const viaAsync = async (): Promise<number> => {
    const t = performance.now();
    for (let i = 0; i < queries; i++) if ((await client.query(SELECT, [idAt(i)])).rows.length !== 1) throw new Error('async: row missing');
    return ((performance.now() - t) * 1000) / queries;
  };
  const viaSqlite = (): number => {
    const t = performance.now();
    for (let i = 0; i < queries; i++) if (!sqliteSelect.get(idAt(i))) throw new Error('sqlite: row missing');
    return ((performance.now() - t) * 1000) / queries;
  };

  viaBridge();
  await viaAsync(); // warm both connections' plans and caches
  const bridgeUs: number[] = [];
  const asyncUs: number[] = [];
  const sqliteUs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      bridgeUs.push(viaBridge());
      asyncUs.push(await viaAsync());
    } else {
      asyncUs.push(await viaAsync());
      bridgeUs.push(viaBridge());
    }
    sqliteUs.push(viaSqlite());
    log(`round ${r + 1}/${rounds}: bridge ${bridgeUs[r]!.toFixed(1)} µs, async ${asyncUs[r]!.toFixed(1)} µs, sqlite ${sqliteUs[r]!.toFixed(1)} µs per query`);
  }
  const ratio = median(bridgeUs.map((b, i) => b / asyncUs[i]!));
  const result = {
    rounds,
    queries_per_round: queries,
    server: server.throwaway ? 'throwaway cluster on a Unix socket' : 'MNEMO_TEST_PG_URL',
    bridge_us_p50: Number(median(bridgeUs).toFixed(1)),
    async_us_p50: Number(median(asyncUs).toFixed(1)),
    bridge_over_async: Number(ratio.toFixed(3)),
    sqlite_us_p50: Number(median(sqliteUs).toFixed(2)),
  };
  log(`per query, median of ${rounds} rounds of ${queries}: bridge ${result.bridge_us_p50} µs, async pg ${result.async_us_p50} µs (bridge / async ${result.bridge_over_async}); SQLite point read ${result.sqlite_us_p50} µs`);
  if (values.json) console.log(JSON.stringify(result));
} finally {
  await client.end().catch(() => {});
  bridge.close();
  sqlite.close();
  rmSync(sqlitePath, { force: true });
  server.stop();
}
