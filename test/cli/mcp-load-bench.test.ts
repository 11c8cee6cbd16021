/**
 * `npm run bench -- mcp-load`, tiny: a few agents for a few seconds on a small demo store, through
 * the real server process and the SDK's HTTP client. What must hold whatever the machine's speed:
 * no errors for the paced agents, the flooder only ever answered or told to slow down, the JSON
 * figures all there, and the store it was given left untouched. (No timing is asserted.)
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const REPO = process.cwd();
const NOW = 1_780_000_000;

function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO, 'scripts', 'bench.js'), 'mcp-load', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const latency = { calls: expect.any(Number), errors: 0, p50_ms: expect.any(Number), p95_ms: expect.any(Number), max_ms: expect.any(Number) };

describe('the mcp-load benchmark', () => {
  it('runs paced agents and a flooder against mnemo mcp --http and reports the figures as one JSON line', async () => {
    const db = join(tempDir(), 'demo.sqlite');
    expect((await runCli(['demo', db, '--size', '500', '--now', String(NOW)])).code).toBe(0);
    const before = sha(db);

    const run = await runBench(['--db', db, '--sessions', '3', '--seconds', '3', '--interval-ms', '300', '--rounds', '1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);

    expect(result).toMatchObject({ bench: 'mcp-load', memories: 500, sessions: 3, seconds: 3, rounds: 1, interval_ms: 300, flood_concurrency: 1, errors: 0 });
    expect(result.pace).toMatch(/one call per 300 ms/);
    for (const phase of [result.phase_a, result.phase_b]) {
      expect(phase).toMatchObject({ remember: latency, recall: latency, all: latency, first_errors: [] });
      expect(phase.all.calls).toBe(phase.remember.calls + phase.recall.calls);
      expect(phase.recall.calls).toBeGreaterThan(0);
      expect(phase.remember.calls).toBeGreaterThan(0);
    }
    const flooder = result.phase_b.flooder;
    expect(flooder.calls).toBeGreaterThan(0);
    expect(flooder.errors).toBe(0);
    expect(flooder.answered + flooder.rate_limited).toBe(flooder.calls);
    expect(Object.keys(result.p95_ratio).sort()).toEqual(['all', 'recall', 'remember']);
    expect(result.warmup).toMatchObject({ first_recall_ms: expect.any(Number), first_remember_ms: expect.any(Number) });
    expect(result.load_average.start).toHaveLength(3);
    // Every write answered with an id is in the store once the server has stopped.
    expect(result.remembered).toBeGreaterThan(0);
    expect(result.lost_writes).toBe(0);
    if (process.platform === 'linux') {
      expect(result.rss_mb).toMatchObject({ listening: expect.any(Number), after_warmup: expect.any(Number), end: expect.any(Number), peak: expect.any(Number) });
      expect(result.rss_mb.after_each_window).toHaveLength(2);
      expect(result.phase_a.server_cpu_s).toEqual(expect.any(Number));
    }
    // It worked on a copy.
    expect(sha(db)).toBe(before);
  }, 180_000);

  it('floods with JSON-RPC batches when asked: each call of a batch answered or told to slow down, never an error', async () => {
    const db = join(tempDir(), 'demo.sqlite');
    expect((await runCli(['demo', db, '--size', '300', '--now', String(NOW)])).code).toBe(0);
    const run = await runBench(['--db', db, '--sessions', '2', '--seconds', '2', '--interval-ms', '300', '--rounds', '1', '--flood-batch', '20', '--flood-concurrency', '2', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result).toMatchObject({ flood_batch: 20, errors: 0, lost_writes: 0 });
    const flooder = result.phase_b.flooder;
    expect(flooder.calls % 20).toBe(0);
    expect(flooder.errors).toBe(0);
    // Two batches of 20 at once against 8 calls in flight: some calls of each are told to slow down.
    expect(flooder.rate_limited).toBeGreaterThan(0);
    expect(flooder.answered + flooder.rate_limited).toBe(flooder.calls);
  }, 180_000);
});
