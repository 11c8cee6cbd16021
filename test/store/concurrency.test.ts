import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

function run(script: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'scripts', script), ...args], { cwd: process.cwd() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

describe('two processes on one store', () => {
  it('a writer adds 1,000 memories while a reader polls: no SQLITE_BUSY, the reader sees every row', async () => {
    const db = join(tempDir(), 'shared.sqlite');
    MemoryStore.open(db, { create: true }).close();
    const [writer, reader] = await Promise.all([run('writer.ts', [db, '1000']), run('reader.ts', [db, '1000', '240000'])]);
    expect(writer.err).toBe('');
    expect(JSON.parse(writer.out)).toEqual({ written: 1000, errors: 0 });
    const r = JSON.parse(reader.out) as { reads: number; errors: number; seen: number; firstErrors: string[] };
    expect(r.firstErrors).toEqual([]);
    expect(r.errors).toBe(0);
    expect(r.seen).toBe(1000);
    expect(r.reads).toBeGreaterThan(1);
  }, 300_000);
});
