/**
 * Fleet: listing a folder of stores, reading each one's KPIs without writing to it, opening one,
 * and the security rules (only the folder the user chose; only names its listing returned;
 * Electron takes folders from its dialog alone).
 */
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { serveStore } from '../../cli/commands/serve.js';
import { expected, FIXTURE_AFTER, FIXTURE_STORE, tempDir } from '../../support/fixture.js';

const NOW = expected().now as number;
let session: ApiSession;
afterEach(() => session?.close());

/** run-a.sqlite, run-b/memory.sqlite, plus things that are not stores (index sidecars among them). */
function fleetFolder(): string {
  const dir = tempDir('mnemo-fleet-');
  copyFileSync(FIXTURE_STORE, join(dir, 'run-a.sqlite'));
  mkdirSync(join(dir, 'run-b'));
  copyFileSync(FIXTURE_AFTER, join(dir, 'run-b', 'memory.sqlite'));
  writeFileSync(join(dir, 'README.txt'), 'not a store');
  writeFileSync(join(dir, 'fake.sqlite'), 'not SQLite either');
  writeFileSync(join(dir, 'run-a.sqlite-wal'), '');
  mkdirSync(join(dir, '.hidden'));
  copyFileSync(FIXTURE_STORE, join(dir, '.hidden', 'x.sqlite'));
  // The index sidecars Mnemo leaves beside a store it opened: SQLite files, but caches, not stores.
  for (const side of [join(dir, 'run-a.sqlite.mnemo-index'), join(dir, 'run-b', 'memory.sqlite.mnemo-index')]) {
    const db = new Database(side);
    db.exec('CREATE TABLE sidecar_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    db.close();
  }
  mkdirSync(join(dir, 'run-a.sqlite.mnemo-index.parts'));
  return dir;
}

function browserSession(): ApiSession {
  session = ApiSession.withFrozenClock(NOW, { shell: { fleetPathFromApi: true } });
  return session;
}

describe('fleet', () => {
  it('lists the SQLite stores of the folder and its subfolders, by header, and not the index sidecars beside them', async () => {
    const dir = fleetFolder();
    const listing = await call(browserSession(), 'fleet.open', { folder: dir });
    expect(listing.stores.map((s) => s.name)).toEqual(['run-a.sqlite', 'run-b/memory.sqlite']);
    expect(await call(session, 'fleet.list', {})).toMatchObject({ stores: listing.stores });
  });

  it('reads each store’s KPIs without writing to it', async () => {
    const dir = fleetFolder();
    const path = join(dir, 'run-a.sqlite');
    const bytes = readFileSync(path);
    const mtime = statSync(path).mtimeMs;
    await call(browserSession(), 'fleet.open', { folder: dir });
    const k = await call(session, 'fleet.kpis', { name: 'run-a.sqlite' });
    const s = expected().summary;
    expect(k).toMatchObject({ ok: true, memories: s.memories, live: s.memories - s.archived, archived: s.archived, edges: s.edges, profile: 'nooa-0.0.9', current: false });
    expect(k.never_fetched_pct).not.toBeNull();
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtime);
    const tables = new Database(path, { readonly: true }).prepare("SELECT name FROM sqlite_master WHERE name LIKE 'mnemo_%'").all();
    expect(tables).toEqual([]);
  });

  it('opens a fleet store as the current store', async () => {
    const dir = fleetFolder();
    await call(browserSession(), 'fleet.open', { folder: dir });
    const info = await call(session, 'fleet.openStore', { name: 'run-b/memory.sqlite' });
    expect(info.path).toBe(join(dir, 'run-b', 'memory.sqlite'));
    expect((await call(session, 'fleet.kpis', { name: 'run-b/memory.sqlite' })).current).toBe(true);
  });

  it('refuses paths that are not absolute folders and names outside the listing', async () => {
    const dir = fleetFolder();
    browserSession();
    expect(await invoke(session, 'fleet.open', { folder: 'runs' })).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/absolute/) } });
    expect(await invoke(session, 'fleet.open', { folder: join(dir, 'nope') })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await invoke(session, 'fleet.open', { folder: join(dir, 'README.txt') })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await invoke(session, 'fleet.openStore', { name: 'run-a.sqlite' })).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/no fleet folder/) } });
    await call(session, 'fleet.open', { folder: dir });
    for (const name of ['../run-a.sqlite', '/etc/passwd', 'run-b/../../x.sqlite', '.hidden/x.sqlite', 'a/b/c.sqlite', 'run-a.sqlite\u0000']) {
      const r = await invoke(session, 'fleet.openStore', { name });
      expect(r.ok, name).toBe(false);
    }
    expect(await invoke(session, 'fleet.openStore', { name: 'fake.sqlite' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await invoke(session, 'fleet.kpis', { name: 'README.txt' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('takes folders only from the dialog where the shell says so (Electron), and from the dialog when there is one', async () => {
    const dir = fleetFolder();
    session = new ApiSession({ shell: { fleetPathFromApi: false, chooseFolder: async () => dir } });
    expect(await invoke(session, 'fleet.open', { folder: dir })).toMatchObject({ ok: false, error: { code: 'permission' } });
    expect((await call(session, 'fleet.choose', {}))!.stores).toHaveLength(2);
    const cancelled = new ApiSession({ shell: { chooseFolder: async () => null } });
    expect(await call(cancelled, 'fleet.choose', {})).toBeNull();
    expect(await invoke(browserSession(), 'fleet.choose', {})).toMatchObject({ ok: false, error: { code: 'permission', message: expect.stringMatching(/--fleet/) } });
  });

  it('mnemo serve --fleet opens the folder and, without a store, its first store', async () => {
    const dir = fleetFolder();
    const quiet = { out: () => undefined, err: () => undefined };
    const { server, session: s } = await serveStore({ now: NOW, io: quiet }, null, { fleet: dir, dir: tempDir() });
    try {
      expect(s.storePath).toBe(join(dir, 'run-a.sqlite'));
      expect((await call(s, 'fleet.list', {}))!.stores).toHaveLength(2);
    } finally {
      await server.close();
      await s.close();
    }
  });
});
