/**
 * Issue 16: a workbench kept on a past instant (ApiSession.readingAt, Engine.openAsOf) must not
 * pin the WAL while an agent writes. The past engine reads in one read transaction per request, let
 * go between requests, so a checkpoint empties the WAL; the instant still shows its old state.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

/** Another process's connection (a foreign writer: the feed's triggers stamp its changes). */
const openWriter = (db: string): Database.Database => new Database(db);

describe('a past instant kept open beside a writer', () => {
  it('lets a checkpoint empty the WAL between requests, and still shows the instant', async () => {
    const db = join(tempDir('mnemo-wal-'), 'store.sqlite');
    const store = MemoryStore.open(db, { create: true, clock: fixedClock(NOW) });
    generateDemo(store, { size: 300, seed: 2, now: NOW });
    const first = allMemories(store).find((m) => !m.archived)!;
    store.close();
    const at = Date.now() / 1000 + 1;
    session = new ApiSession({ clock: fixedClock(NOW) });
    session.open(db);
    await new Promise((r) => setTimeout(r, 1500));
    const writer = openWriter(db);
    writer.prepare('UPDATE memories SET archived = 1 WHERE id = ?').run(first.id);

    const then = await call(session, 'memory.get', { id: first.id, at });
    expect(then.memory.archived).toBe(false);
    // The same instant again, the store unchanged: the kept engine answers (its snapshot taken again).
    expect((await call(session, 'memory.get', { id: first.id, at })).memory.archived).toBe(false);

    const ids = writer.prepare('SELECT id FROM memories LIMIT 50').pluck().all() as string[];
    for (let i = 0; i < 400; i++) writer.prepare("UPDATE memories SET importance = ? WHERE id = ?").run((i % 10) / 10, ids[i % ids.length]);
    const [checkpoint] = writer.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    expect(checkpoint!.busy).toBe(0);
    expect(statSync(`${db}-wal`).size).toBe(0);
    writer.close();

    expect((await call(session, 'memory.get', { id: first.id, at })).memory.archived).toBe(false);
    expect((await call(session, 'memory.get', { id: first.id })).memory.archived).toBe(true);
  });
});
