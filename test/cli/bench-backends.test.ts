/**
 * `npm run bench -- backends`, tiny: a 300-memory demo store on SQLite and its PostgreSQL copy,
 * one round of each measure. What must hold whatever the machine's speed: both backends measured,
 * the same plan on the same data, every write a writer was told succeeded found under its owner,
 * no errors, and the table naming each target. (No timing is asserted.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgUnavailable } from '../../support/pg-cluster.js';

const REPO = process.cwd();

function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(REPO, 'scripts', 'bench.js'), 'backends', ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const BACKENDS = ['sqlite', 'postgres'] as const;

describe.skipIf(pgUnavailable())('the backends benchmark', () => {
  it('measures SQLite and a PostgreSQL copy of the same store and reports them as one JSON line', async () => {
    const run = await runBench(['--size', '300', '--rounds', '1', '--queries', '6', '--open-runs', '1', '--writers', '3', '--write-s', '1', '--phases', 'recall,open,reflect,writes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);

    expect(result).toMatchObject({ bench: 'backends', size: 300, apply_size: 300 });
    expect(result.copies['300'].rows).toBeGreaterThan(300);
    for (const b of BACKENDS) {
      expect(result.recall[b]).toMatchObject({ p50_ms: expect.any(Number), p95_ms: expect.any(Number), samples: 6 });
      expect(result.recall[b].p95_ms).toBeGreaterThanOrEqual(result.recall[b].p50_ms);
      expect(result.open_first_recall[b].runs_ms).toHaveLength(1);
      // The first open (which builds the indexes and leaves their snapshots) is timed apart.
      expect(result.open_first_recall[b].first_ms).toEqual(expect.any(Number));
      // The same store gives the same plan on either backend, and all of it is applied.
      expect(result.reflect_plan[b].ops).toBe(result.reflect_plan.sqlite.ops);
      expect(result.reflect_apply[b]).toMatchObject({ apply_error: null, applied: result.reflect_apply[b].ops });
      const { one, many } = result.writes[b];
      expect(one.writers).toBe(1);
      expect(many.writers).toBe(3);
      for (const phase of [one, many]) {
        expect(phase.written).toBeGreaterThan(0);
        expect(phase).toMatchObject({ errors: 0, lost: 0, first_error: null });
        // Every row found under the writers' owners was reported written, and the reverse.
        expect(phase.counted).toBe(phase.written);
        expect(phase.busy_cores).toBeGreaterThan(0);
        expect(phase.busy_cores).toBeLessThanOrEqual(phase.cores);
      }
    }
    expect(result.open_first_recall.sqlite_no_snapshots.runs_ms).toHaveLength(1);
    expect(result.open_first_recall.postgres_no_snapshots.runs_ms).toHaveLength(1);
    expect(result.reflect_plan.sqlite.ops).toBeGreaterThan(0);
    const measures = result.table.map((r: { measure: string }) => r.measure);
    expect(measures).toEqual(expect.arrayContaining(['recall p50 (ms)', 'recall p95 (ms)', '3 writers / 1 writer', '3 / 1 writers this machine allows (cores / cores busy)', 'lost writes + errors', 'reflection plan at 300 (s)', 'reflection apply at 300 (s)', 'open + first recall (ms, median)']));
    expect(result.table.find((r: { measure: string }) => r.measure === 'lost writes + errors')).toMatchObject({ sqlite: 0, postgres: 0, met: true });
  }, 300_000);

  it('writes through mnemo mcp --http to PostgreSQL behind its delaying proxy: every write found under its agent, no errors', async () => {
    const run = await runBench(['--size', '300', '--write-s', '2', '--phases', 'mcp-writes', '--mcp-agents', '3', '--mcp-workers', '2', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    const m = result.mcp_writes;
    // The proxy adds to each round trip (how much the machine's load adds on top is reported, not asserted).
    expect(m.proxy.delay_ms_each_way).toBe(1);
    expect(m.proxy.proxied_rtt_ms).toBeGreaterThan(m.proxy.direct_rtt_ms);
    expect(m.one.agents).toBe(1);
    expect(m.many).toMatchObject({ agents: 3, workers: 2 });
    for (const phase of [m.one, m.many]) {
      expect(phase.written).toBeGreaterThan(0);
      expect(phase).toMatchObject({ errors: 0, lost: 0, first_error: null });
    }
    expect(m.scaling).toEqual(expect.any(Number));
  }, 600_000);
});
