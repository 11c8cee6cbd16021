/**
 * Issue 41 item 8: `npm start -- --port N` and `mnemo serve --port N` serve browser mode on the port
 * asked for (npm start bound a random port and had no --port); a port in use is refused by number.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureFileCopy } from '../../support/fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];
const held: Server[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGKILL');
  for (const s of held.splice(0)) await new Promise((r) => s.close(r));
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts a command in its own process group; resolves with the first `open:` URL it prints, or rejects with what it printed. */
function startAndWaitForUrl(args: string[], timeoutMs: number): Promise<{ url: string; child: ChildProcess; out: () => string }> {
  const env = { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' };
  const child = spawn(process.execPath, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const read = (b: Buffer) => {
      out += b.toString();
      const m = /open: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child, out: () => out });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before printing a URL:\n${out}`));
    });
  });
}

function runToExit(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('browser mode on the port asked for', () => {
  it('npm start -- <store> --port N serves the workbench on 127.0.0.1:N', async () => {
    const port = await freePort();
    const { url } = await startAndWaitForUrl([join(ROOT, 'scripts', 'start.js'), fixtureFileCopy(), '--port', String(port)], 240_000);
    expect(url.startsWith(`http://127.0.0.1:${port}/`)).toBe(true);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">/);
  }, 300_000);

  it('mnemo serve --port N serves on N; a port in use is refused by number, exit 2', async () => {
    const port = await freePort();
    const { url } = await startAndWaitForUrl([join(ROOT, 'bin', 'mnemo.js'), 'serve', fixtureFileCopy(), '--port', String(port)], 60_000);
    expect(url.startsWith(`http://127.0.0.1:${port}/`)).toBe(true);
    const taken = await runToExit([join(ROOT, 'bin', 'mnemo.js'), 'serve', fixtureFileCopy(), '--port', String(port)]);
    expect(taken.code).toBe(2);
    expect(taken.out).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(taken.out).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('npm start refuses a port that is not one, naming it', async () => {
    const r = await runToExit([join(ROOT, 'scripts', 'start.js'), '--port', 'eighty']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('--port eighty: give a port number from 1 to 65535');
  }, 60_000);
});
