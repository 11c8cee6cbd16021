/**
 * `npm run bench -- backends --replica`: reads from a streaming standby beside writes on the
 * primary. A throwaway primary and a standby made from it with `pg_basebackup -R`
 * (support/pg-cluster.ts) hold the demo store (copied to the primary, replayed by the standby).
 * Then twice, the same work, once per place the reads go:
 * - `primary`: --readers reader processes (bench/lib/backends-reader.ts) read the primary;
 * - `replica`: the same readers read the standby (`--replica`, pg-replicas.ts);
 * while one writer process (bench/lib/backends-writer.ts) remembers memories on the primary for
 * the same window. It reports each side's read latency (p50, p95), reads and writes per second,
 * errors, and how far the standby lagged behind the primary's log over the window (sampled twice a
 * second). The phases take turns (primary first, then replica, then primary again with the other
 * half of the window), so that load from elsewhere on the machine falls on both.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { startReplicatedPg, type PgReplicatedServers } from '../../support/pg-cluster.js';
import { backendCopies } from './backend-copies.js';
import { percentile } from './stats.js';

const READER = join(dirname(fileURLToPath(import.meta.url)), 'backends-reader.ts');
const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'backends-writer.ts');

export interface ReadSide {
  reads: number;
  reads_per_s: number;
  p50_ms: number;
  p95_ms: number;
  errors: number;
  first_error: string | null;
  writes_per_s: number;
  /** The standby's lag behind the primary's log over the window, in bytes: median and largest sample. */
  lag_bytes_median: number;
  lag_bytes_max: number;
}

export interface ReplicaFigures {
  size: number;
  readers: number;
  window_s: number;
  primary: ReadSide;
  replica: ReadSide;
}

interface ReaderReport {
  ms: number[];
  errors: number;
  first_error: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the standby has replayed what the primary has written so far. */
async function replayed(servers: PgReplicatedServers): Promise<void> {
  const p = SyncPg.connect(servers.primaryUrl);
  const r = SyncPg.connect(servers.replicaUrl);
  try {
    const [{ lsn }] = p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn') as [{ lsn: string }];
    while (!r.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn])[0]?.ok) await sleep(100);
  } finally {
    p.close();
    r.close();
  }
}

function message<T>(child: ChildProcess, has: (m: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    child.on('message', (m: T) => has(m) && resolve(m));
    child.once('exit', (code) => reject(new Error(`a bench child exited with ${code} before it reported`)));
  });
}

/** One window: `readers` readers (on the standby when `replica`) beside one writer on the primary. */
async function readWindow(servers: PgReplicatedServers, location: string, readers: number, windowMs: number, now: number, replica: boolean): Promise<{ ms: number[]; errors: number; first_error: string | null; written: number; lags: number[] }> {
  const children = Array.from({ length: readers }, (_, i) =>
    fork(READER, [location, String(now), String(20 + i), ...(replica ? [servers.replicaUrl] : [])], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
  );
  const writer = fork(WRITER, [location, 'w0@bench', String(now)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const reports = children.map((c) => message<ReaderReport & { opened?: boolean }>(c, (m) => m.ms !== undefined));
  const written = message<{ written?: number }>(writer, (m) => m.written !== undefined);
  await Promise.all([...children, writer].map((c) => message<{ opened?: boolean }>(c, (m) => m.opened === true)));
  const warmed = message<{ ready?: boolean }>(writer, (m) => m.ready === true);
  writer.send({ warm: 1_000 });
  await warmed;
  const p = SyncPg.connect(servers.primaryUrl);
  const r = SyncPg.connect(servers.replicaUrl);
  const lags: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const [{ lsn }] = p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn') as [{ lsn: string }];
      const [{ lag }] = r.query<{ lag: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::text AS lag', [lsn]) as [{ lag: string }];
      lags.push(Math.max(0, Number(lag)));
      await sleep(500);
    }
  })();
  writer.send({ go: windowMs });
  for (const c of children) c.send({ go: windowMs });
  const done = await Promise.all(reports);
  const wrote = (await written).written ?? 0;
  sampling = false;
  await sampler;
  p.close();
  r.close();
  return { ms: done.flatMap((d) => d.ms), errors: done.reduce((n, d) => n + d.errors, 0), first_error: done.find((d) => d.first_error)?.first_error ?? null, written: wrote, lags };
}

export async function measureReplicaReads(opts: { size: number; readers: number; windowMs: number; now: number; log: (line: string) => void }): Promise<ReplicaFigures> {
  const servers = startReplicatedPg();
  let copies: ReturnType<typeof backendCopies> | null = null;
  try {
    copies = backendCopies(servers.primaryUrl, opts.size, opts.now, opts.log);
    opts.log('  waiting for the standby to replay the copy…');
    await replayed(servers);
    // The index snapshots in this machine's cache, once: every reader loads them instead of building its own.
    const engine = Engine.open(copies.postgres, { readonly: true, clock: fixedClock(opts.now), onWarning: () => {} });
    explain(engine, { query: 'deploy the billing service', k: 10, hops: 1 });
    engine.close();
    const sides = { primary: { ms: [] as number[], errors: 0, first_error: null as string | null, written: 0, lags: [] as number[], s: 0 }, replica: { ms: [] as number[], errors: 0, first_error: null as string | null, written: 0, lags: [] as number[], s: 0 } };
    const half = opts.windowMs / 2;
    for (const [side, ms] of [['primary', half], ['replica', opts.windowMs], ['primary', half]] as const) {
      opts.log(`  ${opts.readers} readers on the ${side === 'replica' ? 'standby' : 'primary'}, one writer on the primary, ${(ms / 1000).toFixed(0)} s…`);
      const w = await readWindow(servers, copies.postgres, opts.readers, ms, opts.now, side === 'replica');
      const into = sides[side];
      into.ms.push(...w.ms);
      into.errors += w.errors;
      into.first_error ??= w.first_error;
      into.written += w.written;
      into.lags.push(...w.lags);
      into.s += ms / 1000;
    }
    const figures = (s: (typeof sides)['primary']): ReadSide => ({
      reads: s.ms.length,
      reads_per_s: Number((s.ms.length / s.s).toFixed(1)),
      p50_ms: Number(percentile(s.ms, 0.5).toFixed(2)),
      p95_ms: Number(percentile(s.ms, 0.95).toFixed(2)),
      errors: s.errors,
      first_error: s.first_error,
      writes_per_s: Number((s.written / s.s).toFixed(1)),
      lag_bytes_median: percentile(s.lags, 0.5),
      lag_bytes_max: Math.max(0, ...s.lags),
    });
    return { size: opts.size, readers: opts.readers, window_s: opts.windowMs / 1000, primary: figures(sides.primary), replica: figures(sides.replica) };
  } finally {
    copies?.dispose();
    servers.stop();
  }
}
