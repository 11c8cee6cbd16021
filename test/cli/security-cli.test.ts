/**
 * Issue 13 item 9 (CLI door): `mnemo export … | head` ends quietly (status 141, as `cat big | head`
 * reports, and no EPIPE stack trace); a WAL-mode store in a folder the process cannot write is
 * still readable by `list`, `export` and `serve --readonly`, including a commit that is only in its
 * `-wal`, and nothing is created beside it.
 *
 * Root ignores file permissions, so under root the reading process runs as the unprivileged
 * `nobody` (uid 65534), which is what makes the folder unwritable to it.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;

function demoStore(size: number): string {
  const path = join(tempDir(), 'demo.sqlite');
  const store = MemoryStore.open(path, { create: true });
  generateDemo(store, { size, seed: 7, now: NOW });
  store.close();
  return path;
}

/** Runs the CLI as a real process, reads the first chunk of its output and then closes the pipe, as `| head -c` does. */
const CLI = join(process.cwd(), 'cli', 'main.ts');
const isRoot = process.getuid?.() === 0;
/** Root ignores permissions: the reader runs as nobody then. */
const unprivileged: SpawnOptions = isRoot ? { uid: 65534, gid: 65534 } : {};

/**
 * Why nobody cannot run the CLI from this checkout, or null when it can: every folder above the
 * checkout must let others through (a clone inside a private `mktemp -d` folder does not).
 */
function checkoutClosedToOthers(): string | null {
  if (!isRoot) return null;
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o005) !== 0o005) return `the unprivileged reader (uid 65534) cannot enter ${dir}, so it cannot run the CLI from this checkout`;
    if (dirname(dir) === dir) return null;
  }
}

function runCli(args: string[], opts: SpawnOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A demo store in a folder nobody but its owner may write, copied while a writer had one more
 * commit in its -wal (not yet checkpointed): the folder holds `s.sqlite` and `s.sqlite-wal`.
 */
function lockedFolderStore(): { dir: string; db: string; walOnlyId: string } {
  const src = demoStore(60);
  const writer = new Database(src);
  writer.pragma('wal_autocheckpoint = 0');
  const walOnlyId = (writer.prepare('SELECT id FROM memories ORDER BY id LIMIT 1').get() as { id: string }).id;
  writer.prepare("UPDATE memories SET owner = 'walonly' WHERE id = ?").run(walOnlyId);
  const parent = tempDir();
  const dir = join(parent, 'locked');
  mkdirSync(dir);
  const db = join(dir, 's.sqlite');
  copyFileSync(src, db);
  copyFileSync(`${src}-wal`, `${db}-wal`);
  writer.close();
  chmodSync(db, 0o644);
  chmodSync(`${db}-wal`, 0o644);
  chmodSync(dir, 0o555);
  chmodSync(parent, 0o755);
  return { dir, db, walOnlyId };
}

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

  it('reads a WAL store in a folder it cannot write: list, export and serve --readonly, from a snapshot, creating nothing', async (ctx) => {
    const closed = checkoutClosedToOthers();
    if (closed) return ctx.skip(closed);
    const { dir, db, walOnlyId } = lockedFolderStore();
    const before = readdirSync(dir).sort();
    expect(before).toEqual(['s.sqlite', 's.sqlite-wal']);

    const list = await runCli(['list', db, '--json', '--limit', '500'], unprivileged);
    expect(list.stderr).toMatch(/snapshot/);
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout.trim().split('\n').pop()!).rows as { id: string; owner: string }[];
    expect(rows.length).toBeGreaterThan(40);
    expect(rows.find((r) => r.id === walOnlyId)?.owner).toBe('walonly'); // the commit only the -wal holds

    const exported = await runCli(['export', db], unprivileged);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; owner: string });
    expect(lines.length).toBeGreaterThanOrEqual(rows.length);
    expect(lines.find((l) => l.id === walOnlyId)?.owner).toBe('walonly');

    const served = await serveOnce(db, unprivileged);
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ ok: true, value: { counts: { memories: expect.any(Number) } } });
    expect(served.stderr).toMatch(/snapshot/);

    expect(readdirSync(dir).sort()).toEqual(before);
  }, 120_000);
});

/** Starts `mnemo serve <db> --readonly`, asks store.info once, and stops it. */
function serveOnce(db: string, opts: SpawnOptions): Promise<{ status: number; body: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', db, '--readonly', '--json', '--port', '0'], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let asked = false;
    const stop = (err: Error | null, value?: { status: number; body: unknown }) => {
      child.kill();
      if (err) reject(err);
      else resolve({ ...value!, stderr });
    };
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!asked) reject(new Error(`serve exited ${code}: ${stderr}`));
    });
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (asked || !line) return;
      asked = true;
      const { port, token } = JSON.parse(line) as { port: number; token: string };
      const req = request({ host: '127.0.0.1', port, path: '/api/store.info', method: 'POST', headers: { 'content-type': 'application/json', 'x-mnemo-token': token } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => stop(null, { status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', (e) => stop(e));
      req.end('{}');
    });
  });
}
