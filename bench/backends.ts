/**
 * `npm run bench -- backends [--size 100000] [--apply-size N] [--rounds 5] [--queries 40] [--open-runs 3] [--writers 8] [--write-s 10]
 *    [--phases recall,open,reflect,writes,mcp-writes] [--mcp-agents 8] [--mcp-workers N] [--proxy-delay-ms 1] [--repo DIR] [--json]`
 * `npm run bench -- backends --replica [--size 100000] [--readers 8] [--read-s 20] [--json]`
 *
 * With --replica it measures only reads from a streaming standby beside a writer on the primary
 * (bench/lib/backends-replica.ts): read p50 / p95 with the readers on the standby, beside the same
 * readers on the primary. Each reader holds the store's recall indexes: at 100k memories eight of
 * them need about 4 GB.
 *
 * SQLite against PostgreSQL (issue #17) on the same demo store: the cached SQLite demo store of
 * --size memories, copied, and that copy copied to PostgreSQL by copyStore (`mnemo copy`). In one
 * run, on each backend:
 * - recall p50 / p95: the same generated queries on a warm engine, backends alternating per round;
 * - open + first recall: a fresh process, median of --open-runs;
 * - reflection: the plan at --size, and plan + apply at --apply-size (default: --size; at 100k the
 *   apply takes about four minutes a backend on a 2-core machine, so a quick run measures it on a
 *   smaller store);
 * - writes: memories/s of 1 writer process against --writers processes, each its own owner,
 *   through the library for --write-s seconds after a warm-up; every owner's rows counted after
 *   (lost writes); and the cores the machine kept busy, which bound what more writers can add.
 * - writes through `mnemo mcp --http` (issue #37), PostgreSQL only: the server reaches PostgreSQL
 *   through a TCP proxy of this benchmark's own on the loopback that holds every chunk
 *   --proxy-delay-ms each way (1 ms: a 2 ms round trip, as a database on the local network), and
 *   --mcp-agents agents (each an MCP session with its own credential) remember new memories for
 *   --write-s seconds, against one agent alone; lost writes counted as above. The round trip with
 *   and without the proxy is measured and reported (a loaded machine adds its own delay).
 * It prints a table (both values, PostgreSQL / SQLite, the issue's target); with --json the last
 * line is one JSON object. The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster
 * (support/pg-cluster.ts), which runs with fsync off: its writes are not durable, SQLite's are.
 * --phases runs only some of the measures (the table then has only their rows).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startPg } from '../support/pg-cluster.js';
import { BACKENDS, backendCopies, type Backend, type BackendCopies } from './lib/backend-copies.js';
import { measureOpen } from './lib/backends-open.js';
import { measureRecall } from './lib/backends-recall.js';
import { measureReflect, type ReflectFigures } from './lib/backends-reflect.js';
import { backendsTable, printTable, writerCeiling, type BackendsFigures } from './lib/backends-report.js';
import { writePhase, type WritePhase } from './lib/backends-writes.js';
import { mcpWritePhase, type McpWritePhase } from './lib/backends-mcp-writes.js';
import { startDelayProxy } from './lib/delay-proxy.js';
import { SyncPg } from '../core/store/pg/sync-pg.js';
import { resolve } from 'node:path';
import { measureReplicaReads } from './lib/backends-replica.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    'apply-size': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    queries: { type: 'string', default: '40' },
    'open-runs': { type: 'string', default: '3' },
    writers: { type: 'string', default: '8' },
    'write-s': { type: 'string', default: '10' },
    phases: { type: 'string', default: 'recall,open,reflect,writes,mcp-writes' },
    'mcp-agents': { type: 'string', default: '8' },
    'mcp-workers': { type: 'string' },
    'proxy-delay-ms': { type: 'string', default: '1' },
    repo: { type: 'string' },
    replica: { type: 'boolean', default: false },
    readers: { type: 'string', default: '8' },
    'read-s': { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});
const PHASES = ['recall', 'open', 'reflect', 'writes', 'mcp-writes'] as const;
const phases = new Set(values.phases!.split(',').map((p) => p.trim()));
for (const p of phases) if (!(PHASES as readonly string[]).includes(p)) throw new Error(`unknown phase ${JSON.stringify(p)}; phases are ${PHASES.join(', ')}`);
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const NOW = 1_780_000_000;
const size = Number(values.size);
const applySize = Number(values['apply-size'] ?? size);
const writers = Number(values.writers);
const windowMs = Number(values['write-s']) * 1000;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

if (values.replica) {
  log(`backends --replica: ${size.toLocaleString('en')} memories, ${values.readers} readers, load average ${load()}`);
  const r = await measureReplicaReads({ size, readers: Number(values.readers), windowMs: Number(values['read-s']) * 1000, now: NOW, log });
  const row = (side: 'primary' | 'replica') => {
    const f = r[side];
    return `  reads on the ${side === 'primary' ? 'primary' : 'standby'}: p50 ${f.p50_ms} ms, p95 ${f.p95_ms} ms, ${f.reads_per_s} reads/s (${f.reads} reads, ${f.errors} errors); writer ${f.writes_per_s} memories/s; standby lag median ${f.lag_bytes_median} B, max ${f.lag_bytes_max} B`;
  };
  log(row('primary'));
  log(row('replica'));
  log(`load average at the end: ${load()}`);
  if (values.json) console.log(JSON.stringify({ bench: 'backends-replica', server: 'throwaway primary and pg_basebackup standby on Unix sockets, fsync off', ...r }));
  process.exit(0);
}

const server = startPg();
const made: BackendCopies[] = [];
try {
  log(`backends: ${size.toLocaleString('en')} memories (apply at ${applySize.toLocaleString('en')}), load average ${load()}`);
  const main = backendCopies(server.url, size, NOW, log);
  made.push(main);

  const figures: Partial<BackendsFigures> = {};
  if (phases.has('recall')) {
    log('recall (explain k=10, hops=1), warm engines:');
    figures.recall = await measureRecall(main, { rounds: Number(values.rounds), queries: Number(values.queries), now: NOW, log });
  }
  if (phases.has('open')) {
    log('open + first recall, fresh processes:');
    figures.open_first_recall = await measureOpen(main, Number(values['open-runs']), NOW, log);
  }
  let applyCopies: BackendCopies | null = null;
  if (phases.has('reflect')) {
    log('reflection:');
    const plan = await measureReflect(main, applySize === size, NOW, log);
    let apply: Record<Backend, ReflectFigures> = plan;
    if (applySize !== size) {
      applyCopies = backendCopies(server.url, applySize, NOW, log);
      made.push(applyCopies);
      apply = await measureReflect(applyCopies, true, NOW, log);
    }
    figures.reflect_plan = plan;
    figures.reflect_apply = apply;
  }
  if (phases.has('writes')) {
    log(`writes: 1 writer, then ${writers} writers, ${values['write-s']} s each:`);
    const writes = {} as BackendsFigures['writes'];
    for (const b of BACKENDS) {
      const one: WritePhase = await writePhase(main[b], 1, windowMs, NOW);
      const many: WritePhase = await writePhase(main[b], writers, windowMs, NOW);
      writes[b] = { one, many, scaling: Number((many.per_s / one.per_s).toFixed(2)) };
      log(`  ${b}: 1 writer ${one.per_s}/s (${one.busy_cores} of ${one.cores} cores busy), ${writers} writers ${many.per_s}/s (${writes[b].scaling}×; at most ${writerCeiling(writes[b])}× on this machine); errors ${one.errors + many.errors}, lost ${one.lost + many.lost}`);
    }
    figures.writes = writes;
  }
  let mcpWrites: McpWrites | null = null;
  if (phases.has('mcp-writes')) mcpWrites = await measureMcpWrites(main);

  const complete = PHASES.slice(0, 4).every((p) => phases.has(p));
  const table = complete ? backendsTable(figures as BackendsFigures) : [];
  log('');
  if (complete) printTable(table, log);
  if (mcpWrites) {
    const m = mcpWrites;
    log(`| memories/s through mnemo mcp --http, PostgreSQL behind the ${m.proxy.added_rtt_ms} ms proxy: 1 agent / ${m.many.agents} agents | ${m.one.per_s} / ${m.many.per_s} | ${m.scaling}× | ≥ 3× | ${m.scaling >= 3 ? 'yes' : 'NO'} |`);
    log(`| lost writes + errors through mnemo mcp --http | ${m.one.lost + m.many.lost + m.one.errors + m.many.errors} | 0 | ${m.one.lost + m.many.lost + m.one.errors + m.many.errors === 0 ? 'yes' : 'NO'} |`);
  }
  log(`load average at the end: ${load()}`);
  const result = {
    bench: 'backends',
    size,
    apply_size: applySize,
    phases: [...phases],
    server: server.throwaway ? 'throwaway cluster on a Unix socket, fsync off' : 'MNEMO_TEST_PG_URL',
    copies: { [size]: { copy_s: main.copy_s, rows: main.copied_rows }, ...(applyCopies ? { [applySize]: { copy_s: applyCopies.copy_s, rows: applyCopies.copied_rows } } : {}) },
    ...figures,
    ...(mcpWrites ? { mcp_writes: mcpWrites } : {}),
    table,
  };
  if (values.json) console.log(JSON.stringify(result));
} finally {
  for (const c of made) c.dispose();
  server.stop();
}

interface McpWrites {
  proxy: { delay_ms_each_way: number; direct_rtt_ms: number; proxied_rtt_ms: number; added_rtt_ms: number };
  one: McpWritePhase;
  many: McpWritePhase;
  scaling: number;
}

/** The median round trip of a trivial query on `url` (ms). */
function roundTripMs(url: string): number {
  const c = SyncPg.connect(url);
  try {
    c.query('SELECT 1');
    const ms: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      c.query('SELECT $1::int AS x', [i]);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return Number(ms[50]!.toFixed(2));
  } finally {
    c.close();
  }
}

/** 1 agent, then --mcp-agents, writing through `mnemo mcp --http` on PostgreSQL behind the delaying proxy. */
async function measureMcpWrites(copies: BackendCopies): Promise<McpWrites> {
  const delay = Number(values['proxy-delay-ms']);
  const proxy = await startDelayProxy(server.url, delay);
  try {
    const schema = new URLSearchParams(copies.postgres.slice(copies.postgres.indexOf('?') + 1)).get('schema')!;
    const proxied = `${proxy.url}${proxy.url.includes('?') ? '&' : '?'}schema=${schema}`;
    const direct = roundTripMs(server.url);
    const through = roundTripMs(proxy.url);
    log(`writes through mnemo mcp --http, PostgreSQL behind a proxy holding each chunk ${delay} ms each way (round trip ${direct} ms direct, ${through} ms through it):`);
    const agents = Number(values['mcp-agents']);
    const workers = values['mcp-workers'] ? Number(values['mcp-workers']) : null;
    // The server child keeps its index snapshots where this run keeps them (the throwaway cluster's folder).
    const cacheDir = process.env['MNEMO_INDEX_CACHE_DIR'];
    const env: Record<string, string> = cacheDir ? { MNEMO_INDEX_CACHE_DIR: cacheDir } : {};
    const repo = resolve(values.repo ?? process.cwd());
    const base = { repo, location: copies.postgres, serverUrl: proxied, windowMs, now: NOW, workers, env };
    const one = await mcpWritePhase({ ...base, agents: 1 });
    log(`  1 agent: ${one.per_s}/s (remember p50 ${one.p50_ms} ms, max ${one.max_ms} ms; ${one.busy_cores} of ${one.cores} cores busy); errors ${one.errors}, lost ${one.lost}`);
    const many = await mcpWritePhase({ ...base, agents });
    const scaling = Number((many.per_s / one.per_s).toFixed(2));
    log(`  ${agents} agents: ${many.per_s}/s (${scaling}×; remember p50 ${many.p50_ms} ms, max ${many.max_ms} ms; ${many.busy_cores} of ${many.cores} cores busy); errors ${many.errors}, lost ${many.lost}${many.first_error ? `; first error: ${many.first_error}` : ''}`);
    return { proxy: { delay_ms_each_way: delay, direct_rtt_ms: direct, proxied_rtt_ms: through, added_rtt_ms: Number((through - direct).toFixed(2)) }, one, many, scaling };
  } finally {
    proxy.stop();
  }
}
