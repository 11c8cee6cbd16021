/**
 * Issue 13 item 9: a read-only open leaves the folder as it found it. fleet.kpis reads every store
 * of a fleet without leaving -wal/-shm files beside them (nor changing a byte of them), whether
 * the store is closed, has a -wal left over, or is open in a live writer; and a read-only store
 * still sees a live writer's later commits (it is not a snapshot when it need not be).
 */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { generateDemo } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

function demoStore(path: string, seed: number): void {
  const store = MemoryStore.open(path, { create: true });
  generateDemo(store, { size: 40, seed, now: NOW });
  store.close();
}

/** Every file under dir, relative, with its mtime and bytes. */
function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      // A live writer's -shm is shared memory that every reader marks: only its presence is compared.
      else if (e.name.endsWith('-shm')) out[relative(dir, p)] = 'present';
      else out[relative(dir, p)] = `${statSync(p).mtimeMs}:${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

function isWal(path: string): boolean {
  const h = readFileSync(path).subarray(18, 20);
  return h[0] === 2 && h[1] === 2;
}

describe('read-only opens leave the folder as they found it', () => {
  it('fleet.kpis creates no -wal/-shm beside closed, left-over-wal and live stores, and changes no byte', async () => {
    const dir = tempDir('mnemo-fleet-');
    demoStore(join(dir, 'closed.sqlite'), 1);
    demoStore(join(dir, 'leftover.sqlite'), 2);
    writeFileSync(join(dir, 'leftover.sqlite-wal'), ''); // a process that died left its (empty) -wal
    mkdirSync(join(dir, 'live'));
    demoStore(join(dir, 'live', 'memory.sqlite'), 3);
    copyFileSync(join(dir, 'closed.sqlite'), join(dir, 'copy.sqlite'));
    expect(isWal(join(dir, 'closed.sqlite'))).toBe(true);
    // An agent has this one open: its -wal and -shm exist and are its own.
    const agent = new Database(join(dir, 'live', 'memory.sqlite'));
    cleanup.push(() => agent.close());
    agent.prepare('SELECT count(*) FROM memories').get();
    const before = snapshotOf(dir);
    expect(Object.keys(before)).toContain('live/memory.sqlite-shm');

    const session = ApiSession.withFrozenClock(NOW, { shell: { fleetPathFromApi: true } });
    cleanup.push(() => session.close());
    await call(session, 'fleet.open', { folder: dir });
    for (const name of ['closed.sqlite', 'leftover.sqlite', 'live/memory.sqlite', 'copy.sqlite']) {
      const k = await call(session, 'fleet.kpis', { name });
      expect(k, name).toMatchObject({ ok: true, memories: expect.any(Number) });
      expect(k.memories, name).toBeGreaterThan(0);
    }
    expect(snapshotOf(dir)).toEqual(before);
  });

  it('a read-only store of a closed WAL file still sees later commits by a writer, and leaves nothing when closed', () => {
    const dir = tempDir();
    const path = join(dir, 's.sqlite');
    demoStore(path, 4);
    const reader = MemoryStore.open(path, { readonly: true, onWarning: (m) => expect.fail(`unexpected warning: ${m}`) });
    const count = () => (connectionOf(reader).prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    const n0 = count();
    const writer = new Database(path);
    writer.prepare('DELETE FROM memories WHERE id = (SELECT id FROM memories LIMIT 1)').run();
    expect(count()).toBe(n0 - 1);
    expect(() => connectionOf(reader).prepare('DELETE FROM memories').run()).toThrow(/readonly|query_only|read-only|attempt to write/i);
    writer.close();
    reader.close();
    expect(readdirSync(dir)).toEqual(['s.sqlite']);
  });
});
