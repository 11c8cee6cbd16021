/**
 * Issue 13 item 4: opening a store never changes a file that is not already a store, browser mode
 * opens only what it was started with (or a folder it names), the Electron page cannot name a path,
 * and `serve --readonly` stays read-only. A refused open leaves the file byte for byte as it was,
 * with no `-wal` / `-shm` beside it.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import { serveStore } from '../../cli/commands/serve.js';
import type { RunningServer } from '../../server/http-server.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import { TOKEN_HEADER } from '../../server/security.js';
import { handleInvoke } from '../../electron/ipc.js';
import { runCli } from '../helpers/cli.js';
import { inProcessDoor } from '../helpers/in-process-door.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';

// The IPC adapter is exercised with electron mocked, as the shell's own tests do.
vi.mock('electron', () => ({}));

const NOW: number = expected().now;
const quiet = { out: () => undefined, err: () => undefined };

/** Another program's SQLite database: a browser-like cookie jar (rollback journal, no store tables). */
function cookieDb(dir = tempDir()): string {
  const path = join(dir, 'Cookies');
  const db = new Database(path);
  db.exec("CREATE TABLE cookies (host_key TEXT, name TEXT, value TEXT); INSERT INTO cookies VALUES ('.bank.example', 'session', 's3cr3t')");
  db.close();
  return path;
}

function emptyFile(dir = tempDir()): string {
  const path = join(dir, 'empty.sqlite');
  writeFileSync(path, '');
  return path;
}

/** Asserts the file is exactly as before and nothing was created beside it. */
function expectUntouched(path: string, before: Buffer): void {
  expect(readFileSync(path).equals(before)).toBe(true);
  expect(existsSync(`${path}-wal`)).toBe(false);
  expect(existsSync(`${path}-shm`)).toBe(false);
}

describe('(a) a file that is not a nooa or Mnemo store is never converted', () => {
  it('store.open refuses a foreign SQLite database and an empty file, pointing to mnemo init; bytes unchanged, no -wal', async () => {
    const session = new ApiSession();
    try {
      for (const path of [cookieDb(), emptyFile()]) {
        const before = readFileSync(path);
        const r = await invoke(session, 'store.open', { path });
        expect(r).toMatchObject({ ok: false, error: { code: 'schema', message: expect.stringContaining(`mnemo init ${path}`) } });
        expectUntouched(path, before);
      }
      const cookies = cookieDb();
      const tables = new Database(cookies, { readonly: true }).prepare("SELECT name FROM sqlite_master WHERE type='table'").all();
      await invoke(session, 'store.open', { path: cookies });
      expect(new Database(cookies, { readonly: true }).prepare("SELECT name FROM sqlite_master WHERE type='table'").all()).toEqual(tables);
    } finally {
      session.close();
    }
  });

  it('a WAL-mode foreign database is looked at through the read-only opener: refused with no -wal/-shm left beside it', async () => {
    const path = join(tempDir(), 'cookies.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, content TEXT); INSERT INTO moz_cookies (content) VALUES ('session=s3cr3t')");
    db.close();
    const before = readFileSync(path);
    const session = new ApiSession();
    try {
      expect(await invoke(session, 'store.open', { path })).toMatchObject({ ok: false, error: { code: 'schema' } });
      expect(await invoke(session, 'store.open', { path, readonly: true })).toMatchObject({ ok: false, error: { code: 'schema' } });
      expectUntouched(path, before);
      // A store in WAL mode (the fixture) is still recognised and opens.
      expect(await invoke(session, 'store.open', { path: fixtureCopy() })).toMatchObject({ ok: true });
    } finally {
      session.close();
    }
  });

  it('store.open never creates a store: create is refused, and a missing path stays missing', async () => {
    const session = new ApiSession();
    try {
      const path = join(tempDir(), 'new.sqlite');
      const made = await invoke(session, 'store.open', { path, create: true });
      expect(made).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('mnemo init') } });
      const missing = await invoke(session, 'store.open', { path });
      expect(missing).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('mnemo init') } });
      expect(existsSync(path)).toBe(false);
    } finally {
      session.close();
    }
  });

  it('the CLI (add, import, mcp, list) refuses such files untouched; only mnemo init converts', async () => {
    const jsonl = join(tempDir(), 'one.jsonl');
    writeFileSync(jsonl, `${JSON.stringify({ content: 'imported' })}\n`);
    for (const argv of [
      (p: string) => ['add', p, 'a memory'],
      (p: string) => ['import', p, jsonl],
      (p: string) => ['mcp', p],
      (p: string) => ['list', p],
    ]) {
      for (const path of [cookieDb(), emptyFile()]) {
        const before = readFileSync(path);
        const r = await runCli(argv(path));
        expect(r.code, `${argv(path).join(' ')}: ${r.stdout}`).toBe(2);
        expect(r.stderr).toContain('mnemo init');
        expectUntouched(path, before);
      }
    }
    const path = cookieDb();
    const init = await runCli(['init', path]);
    expect(init.code, init.stderr).toBe(0);
    expect(new Database(path, { readonly: true }).prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'mnemo_meta'").get()).toEqual({ n: 1 });
  });

  it('mnemo serve refuses such a file (read-write and --readonly), untouched', async () => {
    for (const readonly of [false, true]) {
      const path = cookieDb();
      const before = readFileSync(path);
      const outcome = await serveStore({ now: NOW, io: quiet }, path, { readonly, dir: tempDir() }).then(
        async ({ server, session }) => {
          await server.close();
          session.close();
          return 'served';
        },
        (err: Error) => err.message,
      );
      expect(outcome).toMatch(/not a memory store.*mnemo init/);
      expectUntouched(path, before);
    }
  });
});

// ------------------------------------------------------------------ browser mode (HTTP)
let running: { server: RunningServer; session: EngineHost } | null = null;
afterEach(async () => {
  await running?.server.close();
  await running?.session.close();
  running = null;
});

async function serve(db: string, opts: { readonly?: boolean; roots?: string[]; fleet?: string } = {}) {
  running = await serveStore({ now: NOW, io: quiet }, db, { ...opts, dir: tempDir() });
  return running;
}

async function api(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const { server } = running!;
  const res = await fetch(`http://127.0.0.1:${server.port}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: server.token },
    body: JSON.stringify(input),
  });
  return (await res.json()) as never;
}

describe('(b) browser mode opens only the store it was started with, or stores under --root', () => {
  it('refuses paths outside with one message that does not tell whether they exist or what they are', async () => {
    const db = fixtureCopy();
    await serve(db);
    const outside = tempDir();
    writeFileSync(join(outside, 'file.txt'), 'x');
    const probes = ['/etc/passwd', '/etc', join(outside, 'file.txt'), join(outside, 'missing.sqlite'), outside, '/nonexistent/dir/x.sqlite', cookieDb()];
    const replies = await Promise.all(probes.map((path) => api('store.open', { path })));
    for (const [i, r] of replies.entries()) {
      expect(r).toMatchObject({ ok: false, error: { code: 'permission' } });
      // Only the echoed path differs between the refusals.
      expect(r.error!.message.replace(JSON.stringify(probes[i]), '<path>')).toBe(replies[0]!.error!.message.replace(JSON.stringify(probes[0]), '<path>'));
    }
    expect(await api('store.open', { path: db })).toMatchObject({ ok: true });
  });

  it('with --root: stores inside open, a symlink that leads out is refused like any outside path', async () => {
    const root = tempDir();
    const other = join(root, 'other.sqlite');
    const made = await runCli(['init', other]);
    expect(made.code, made.stderr).toBe(0);
    const elsewhere = fixtureCopy();
    symlinkSync(elsewhere, join(root, 'link.sqlite'));
    await serve(fixtureCopy(), { roots: [root] });
    expect(await api('store.open', { path: other })).toMatchObject({ ok: true, value: { name: 'other.sqlite' } });
    expect(await api('store.open', { path: join(root, 'link.sqlite') })).toMatchObject({ ok: false, error: { code: 'permission' } });
    expect(await api('store.open', { path: join(root, '..', '..', 'etc', 'passwd') })).toMatchObject({ ok: false, error: { code: 'permission' } });
  });

  it('--root must name an existing folder', async () => {
    await expect(serveStore({ now: NOW, io: quiet }, fixtureCopy(), { roots: [join(tempDir(), 'typo')], dir: tempDir() })).rejects.toThrow(/--root .* is not a folder/);
  });

  it('fleet.open is confined the same way', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'runs'));
    await serve(fixtureCopy(), { roots: [root] });
    expect(await api('fleet.open', { folder: join(root, 'runs') })).toMatchObject({ ok: true });
    for (const folder of ['/etc', '/nonexistent-folder', tempDir()]) {
      expect(await api('fleet.open', { folder })).toMatchObject({ ok: false, error: { code: 'permission' } });
    }
  });
});

describe('(c) Electron: the page cannot name a store path', () => {
  it('store.open over IPC is refused (paths come only from the dialog); the store stays as it was', async () => {
    const session = new ApiSession({ shell: { fleetPathFromApi: false, paths: { kind: 'dialog' } } });
    const door = inProcessDoor(session);
    const ourFrame = { senderFrame: { url: 'app://mnemo/index.html#/memories', parent: null } } as never;
    const path = cookieDb();
    const before = readFileSync(path);
    try {
      for (const p of [path, fixtureCopy()]) {
        const r = await handleInvoke(ourFrame, 'store.open', { path: p }, { door: () => door });
        expect(r).toMatchObject({ ok: false, error: { code: 'permission', message: expect.stringContaining('file dialog') } });
      }
      expect(session.hasEngine).toBe(false);
      expectUntouched(path, before);
    } finally {
      door.close();
      session.close();
    }
  });
});

describe('(d) serve --readonly stays read-only', () => {
  it('a store.open of the same file (readonly: false) still cannot write', async () => {
    const db = fixtureCopy();
    const count = () => (new Database(db, { readonly: true }).prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    const before = count();
    await serve(db, { readonly: true });
    expect(await api('store.open', { path: db, readonly: false })).toMatchObject({ ok: true, value: { readonly: true } });
    const add = await api('memory.add', { content: 'written through a reopened read-only server' });
    expect(add.ok).toBe(false);
    expect(count()).toBe(before);
  });
});
