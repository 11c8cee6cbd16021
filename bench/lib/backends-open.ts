/**
 * Open to first recall on both backends for `npm run bench -- backends`: a fresh process
 * (bench/lib/live-child.ts, role open-recall) opens the store and answers one recall, as
 * `npm run bench -- live` measures it for SQLite. One untimed run per backend first (it leaves
 * SQLite's index snapshots, as live.ts does), then the timed runs alternate backends.
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

function openAndRecall(location: string, now: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'open-recall', location, String(now)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`open-recall exited with ${code}`));
      resolve((JSON.parse(out.trim().split('\n').pop()!) as { open_first_recall_ms: number }).open_first_recall_ms);
    });
  });
}

export async function measureOpen(copies: BackendCopies, runs: number, now: number, log: (line: string) => void): Promise<Record<Backend, OpenFigures>> {
  for (const b of BACKENDS) await openAndRecall(copies[b], now);
  const times: Record<Backend, number[]> = { sqlite: [], postgres: [] };
  for (let r = 0; r < runs; r++) {
    for (const b of r % 2 === 0 ? BACKENDS : [...BACKENDS].reverse()) times[b].push(Math.round(await openAndRecall(copies[b], now)));
    log(`  open + first recall, run ${r + 1}/${runs}: ${BACKENDS.map((b) => `${b} ${times[b][r]} ms`).join(', ')}`);
  }
  return Object.fromEntries(BACKENDS.map((b) => [b, { median_ms: Math.round(median(times[b])), runs_ms: times[b] }])) as Record<Backend, OpenFigures>;
}
