/**
 * Open to first recall on both backends for `npm run bench -- backends`: a fresh process
 * (bench/lib/live-child.ts, role open-recall) opens the store and answers one recall, as
 * `npm run bench -- live` measures it for SQLite. One first run per backend with snapshots (it
 * builds every index and leaves the snapshots: SQLite's beside the file, PostgreSQL's in a cache
 * folder made for this run), timed apart as `first_ms`; then the timed runs alternate the series.
 * Each backend is also timed with snapshots off (MNEMO_INDEX_SNAPSHOTS=off: every index built on
 * open), the cost snapshots spare.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS, type Backend, type BackendCopies } from './backend-copies.js';
import { median } from './stats.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'live-child.ts');

export interface OpenFigures {
  median_ms: number;
  runs_ms: number[];
  /** The first open with snapshots on, which builds the indexes and leaves their snapshots (unset without snapshots). */
  first_ms?: number;
}

/** Each backend with its index snapshots, and without them (every index built on open). */
export type OpenSeries = Backend | 'sqlite_no_snapshots' | 'postgres_no_snapshots';
const SERIES: readonly OpenSeries[] = [...BACKENDS, 'sqlite_no_snapshots', 'postgres_no_snapshots'];

function openAndRecall(location: string, now: number, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'open-recall', location, String(now)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`open-recall exited with ${code}`));
      resolve((JSON.parse(out.trim().split('\n').pop()!) as { open_first_recall_ms: number }).open_first_recall_ms);
    });
  });
}

export async function measureOpen(copies: BackendCopies, runs: number, now: number, log: (line: string) => void): Promise<Record<OpenSeries, OpenFigures>> {
  // PostgreSQL's snapshots go to a cache folder of this run's own, so the first open starts cold and nothing is left behind.
  const cacheDir = mkdtempSync(join(tmpdir(), 'mnemo-bench-index-cache-'));
  const backendOf = (s: OpenSeries): Backend => (s === 'postgres' || s === 'postgres_no_snapshots' ? 'postgres' : 'sqlite');
  const once = (s: OpenSeries) =>
    openAndRecall(copies[backendOf(s)], now, { ...process.env, MNEMO_INDEX_SNAPSHOTS: s === backendOf(s) ? 'on' : 'off', MNEMO_INDEX_CACHE_DIR: cacheDir });
  try {
    const first: Record<Backend, number> = { sqlite: 0, postgres: 0 };
    for (const b of BACKENDS) first[b] = Math.round(await once(b));
    log(`  open + first recall, first open (builds the indexes, leaves snapshots): ${BACKENDS.map((b) => `${b} ${first[b]} ms`).join(', ')}`);
    const times: Record<OpenSeries, number[]> = { sqlite: [], postgres: [], sqlite_no_snapshots: [], postgres_no_snapshots: [] };
    for (let r = 0; r < runs; r++) {
      for (const s of r % 2 === 0 ? SERIES : [...SERIES].reverse()) times[s].push(Math.round(await once(s)));
      log(`  open + first recall, run ${r + 1}/${runs}: ${SERIES.map((s) => `${s} ${times[s][r]} ms`).join(', ')}`);
    }
    const figures = (s: OpenSeries): OpenFigures => ({ median_ms: Math.round(median(times[s])), runs_ms: times[s], ...(s === backendOf(s) ? { first_ms: first[backendOf(s)] } : {}) });
    return Object.fromEntries(SERIES.map((s) => [s, figures(s)])) as Record<OpenSeries, OpenFigures>;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
