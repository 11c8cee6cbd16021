/** The Electron security scan (run in CI through this test): no HIGH or MEDIUM finding. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('electronegativity scan of the Electron shell', () => {
  it('reports no HIGH or MEDIUM finding', () => {
    const r = spawnSync(process.execPath, ['scripts/electronegativity.js', '--json'], { encoding: 'utf8', timeout: 240_000 });
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    const report = JSON.parse(last) as { findings: { check: string; severity: string; file: string; location: string }[]; blocking: number };
    const blocking = report.findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
    expect(blocking).toEqual([]);
    expect(r.status).toBe(0);
    // The scan really ran over the shell: the CSP in index.html is what it looked at.
    expect(report.findings.every((f) => f.check !== 'CSP_GLOBAL_CHECK' || f.severity === 'LOW')).toBe(true);
  }, 300_000);
});
