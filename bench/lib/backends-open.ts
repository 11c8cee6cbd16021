/**
 * Open to first recall on both backends for `npm run bench -- backends`: a fresh process
 * (bench/lib/live-child.ts, role open-recall) opens the store and answers one recall, as
 * `npm run bench -- live` measures it for SQLite. One untimed run per backend first (it leaves
 * SQLite's index snapshots, as live.ts does), then the timed runs alternate backends.
 * A PostgreSQL engine keeps no index snapshots (they are a file beside a SQLite store) and builds
 * every index on open, so SQLite with snapshots off (MNEMO_INDEX_SNAPSHOTS=off) is timed in the same
 * rounds as well: PostgreSQL against it is what the backend itself costs.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS, type Backend, type BackendCopies } from './backend-copies.js';
import { median } from './stats.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'live-child.ts');

export interface OpenFigures {
  median_ms: number;
  runs_ms: number[];
}

/** The backends, and SQLite building its indexes on open as PostgreSQL does. */
export type OpenSeries = Backend | 'sqlite_no_snapshots';
const SERIES: readonly OpenSeries[] = [...BACKENDS, 'sqlite_no_snapshots'];

function openAndRecall(location: string, now: number, snapshots: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, MNEMO_INDEX_SNAPSHOTS: snapshots ? 'on' : 'off' };
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
  const once = (s: OpenSeries) => openAndRecall(s === 'postgres' ? copies.postgres : copies.sqlite, now, s === 'sqlite');
  for (const b of BACKENDS) await once(b);
  const times: Record<OpenSeries, number[]> = { sqlite: [], postgres: [], sqlite_no_snapshots: [] };
  for (let r = 0; r < runs; r++) {
    for (const s of r % 2 === 0 ? SERIES : [...SERIES].reverse()) times[s].push(Math.round(await once(s)));
    log(`  open + first recall, run ${r + 1}/${runs}: ${SERIES.map((s) => `${s} ${times[s][r]} ms`).join(', ')}`);
  }
  return Object.fromEntries(SERIES.map((s) => [s, { median_ms: Math.round(median(times[s])), runs_ms: times[s] }])) as Record<OpenSeries, OpenFigures>;
}
