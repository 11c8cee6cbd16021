/**
 * `npm run bench -- backends [--size 100000] [--apply-size N] [--rounds 5] [--queries 40] [--open-runs 3] [--writers 8] [--write-s 10] [--json]`
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
 * It prints a table (both values, PostgreSQL / SQLite, the target); with --json the last
 * line is one JSON object. The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster
 * (support/pg-cluster.ts), which runs with fsync off: its writes are not durable, SQLite's are.
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
    replica: { type: 'boolean', default: false },
    readers: { type: 'string', default: '8' },
    'read-s': { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
  },
});
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

  log('recall (explain k=10, hops=1), warm engines:');
  const recall = measureRecall(main, { rounds: Number(values.rounds), queries: Number(values.queries), now: NOW, log });

  log('open + first recall, fresh processes:');
  const open = await measureOpen(main, Number(values['open-runs']), NOW, log);

  log('reflection:');
  const plan = await measureReflect(main, applySize === size, NOW, log);
  let apply: Record<Backend, ReflectFigures> = plan;
  let applyCopies: BackendCopies | null = null;
  if (applySize !== size) {
    applyCopies = backendCopies(server.url, applySize, NOW, log);
    made.push(applyCopies);
    apply = await measureReflect(applyCopies, true, NOW, log);
  }

  log(`writes: 1 writer, then ${writers} writers, ${values['write-s']} s each:`);
  const writes = {} as BackendsFigures['writes'];
  for (const b of BACKENDS) {
    const one: WritePhase = await writePhase(main[b], 1, windowMs, NOW);
    const many: WritePhase = await writePhase(main[b], writers, windowMs, NOW);
    writes[b] = { one, many, scaling: Number((many.per_s / one.per_s).toFixed(2)) };
    log(`  ${b}: 1 writer ${one.per_s}/s (${one.busy_cores} of ${one.cores} cores busy), ${writers} writers ${many.per_s}/s (${writes[b].scaling}×; at most ${writerCeiling(writes[b])}× on this machine); errors ${one.errors + many.errors}, lost ${one.lost + many.lost}`);
  }

  const figures: BackendsFigures = { recall, open_first_recall: open, reflect_plan: plan, reflect_apply: apply, writes };
  const table = backendsTable(figures);
  log('');
  printTable(table, log);
  log(`load average at the end: ${load()}`);
  const result = {
    bench: 'backends',
    size,
    apply_size: applySize,
    server: server.throwaway ? 'throwaway cluster on a Unix socket, fsync off' : 'MNEMO_TEST_PG_URL',
    copies: { [size]: { copy_s: main.copy_s, rows: main.copied_rows }, ...(applyCopies ? { [applySize]: { copy_s: applyCopies.copy_s, rows: applyCopies.copied_rows } } : {}) },
    ...figures,
    table,
  };
  if (values.json) console.log(JSON.stringify(result));
} finally {
  for (const c of made) c.dispose();
  server.stop();
}
