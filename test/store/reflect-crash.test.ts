/**
 * Crash safety: a child process applies a plan and is killed with SIGKILL at a random point, 20
 * times. Once reopened writable, the store is always wholly before or wholly after, and
 * PRAGMA integrity_check is ok.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planReflection } from '../../core/reflect/plan.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { dumpStore, integrityOk, openAt } from '../../support/reflect.js';

const NOW: number = expected().now;
const CHILD = join(process.cwd(), 'test', 'helpers', 'apply-child.ts');

function runChild(db: string, plan: string, killAfterStartMs: number | null): Promise<{ finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, db, plan, String(NOW)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (killAfterStartMs !== null && out.includes('start')) {
        killAfterStartMs = null;
        setTimeout(() => child.kill('SIGKILL'), delay);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const delay = killAfterStartMs ?? 0;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve({ finished: out.includes('done') });
      else reject(new Error(`child failed (${code}): ${err}`));
    });
  });
}

describe('crash safety of apply', () => {
  it('is all or nothing under kill -9, 20 times', { timeout: 400_000 }, async () => {
    const base = fixtureCopy();
    const setup = openAt(base, NOW);
    setup.store.ensureMnemo(); // the journal tables exist before, so "before" is a stable dump
    const plan = await planReflection(setup);
    setup.close();
    const dir = tempDir();
    const planPath = join(dir, 'plan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    const before = dumpStore(base);
    const donePath = join(dir, 'done.sqlite');
    copyFileSync(base, donePath);
    const t0 = Date.now();
    expect((await runChild(donePath, planPath, null)).finished).toBe(true);
    const runMs = Date.now() - t0;
    const after = dumpStore(donePath);
    expect(after).not.toEqual(before);
    let sawBefore = 0;
    let sawAfter = 0;
    for (let i = 0; i < 20; i++) {
      const db = join(dir, `kill-${i}.sqlite`);
      copyFileSync(base, db);
      // Random points across the child's whole life: start-up, inside the transaction, commit.
      const res = await runChild(db, planPath, Math.floor(Math.random() * Math.max(50, runMs * 0.6)));
      // The apply is written in short transactions: the next writable open rolls a cut-short one back.
      openAt(db, NOW).close();
      expect(integrityOk(db), `run ${i}`).toBe(true);
      const now = dumpStore(db);
      const isBefore = JSON.stringify(now) === JSON.stringify(before);
      const isAfter = JSON.stringify(now) === JSON.stringify(after);
      expect(isBefore || isAfter, `run ${i}: neither before nor after`).toBe(true);
      if (isBefore) sawBefore++;
      if (isAfter) sawAfter++;
      if (res.finished) expect(isAfter).toBe(true);
    }
    expect(sawBefore + sawAfter).toBe(20);
    console.log(`crash test: ${sawBefore} before, ${sawAfter} after, one full apply ${runMs} ms`);
  });
});
