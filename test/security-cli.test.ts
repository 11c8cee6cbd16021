/**
 * Issue 13 item 9 (CLI door): `mnemo export … | head` ends quietly (status 141, as `cat big | head`
 * reports, and no EPIPE stack trace).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../core/demo/generate.js';
import { MemoryStore } from '../core/store/store.js';
import { tempDir } from './helpers/fixture.js';

const NOW = 1_780_000_000;

function demoStore(size: number): string {
  const path = join(tempDir(), 'demo.sqlite');
  const store = MemoryStore.open(path, { create: true });
  generateDemo(store, { size, seed: 7, now: NOW });
  store.close();
  return path;
}

/** Runs the CLI as a real process, reads the first chunk of its output and then closes the pipe, as `| head -c` does. */
function runAndCloseEarly(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; firstChunk: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'cli', 'main.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let firstChunk = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdout.once('data', (c: Buffer) => {
      firstChunk = c.toString('utf8');
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, firstChunk, stderr }));
  });
}

describe('CLI door', () => {
  it('export to a reader that stops early exits 141 without a stack trace', async () => {
    const db = demoStore(800);
    const r = await runAndCloseEarly(['export', db]);
    expect(r.firstChunk.length).toBeGreaterThan(0);
    expect(JSON.parse(r.firstChunk.split('\n')[0]!)).toHaveProperty('id');
    expect(r.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(r.stderr).toBe('');
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 141, signal: null });
  }, 60_000);
});
