/**
 * An erase on SQLite makes its bytes go without holding the write lock for long
 * (sqlite/reclaim-worker.ts): an agent process writing beside it, with a busy timeout of 1 s, is
 * never refused, including while the erase reclaims (before, the whole file was VACUUMed in one
 * transaction: a write waiting on it failed with "database is locked").
 *
 * And the free pages are rewritten: a row deleted by another program (secure_delete off) leaves its
 * text in the pages it freed; after an erase, no byte of the file or its WAL holds it.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { EraseReceipt } from '../../core/erase/erase.js';
import { tempDir } from '../../support/fixture.js';
import { NOW, plannedStore, startAgent } from '../../support/long-writes.js';
import { CANARY, occurrences, steppingClock } from '../helpers/erase-canary.js';

let session: ApiSession | null = null;
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  session?.close();
  session = null;
  for (const s of stops.splice(0)) await s();
});

const inFiles = (path: string) => [path, `${path}-wal`].reduce((n, p) => n + (readOrEmpty(p) ? occurrences(readOrEmpty(p)!) : 0), 0);
function readOrEmpty(p: string): Buffer | null {
  try {
    return readFileSync(p);
  } catch {
    return null;
  }
}

/**
 * Pages another program left behind: `live_mb` of a table of its own (the file is as big as a
 * store of many memories; a VACUUM copies all of it) and `freed_mb` written then dropped with
 * secure_delete off (free pages still holding old bytes, which the erase must rewrite).
 */
function padWithForeignPages(path: string, liveMb: number, freedMb: number): void {
  const db = new Database(path);
  try {
    db.pragma('secure_delete = OFF');
    const fill = (table: string, mb: number) => db.exec(`CREATE TABLE ${table} (b BLOB); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${mb}) INSERT INTO ${table} SELECT zeroblob(1000000) FROM c`);
    fill('foreign_pages', liveMb);
    fill('foreign_freed', freedMb);
    db.exec('DROP TABLE foreign_freed');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

describe('erase beside other writers (SQLite)', () => {
  it('an agent process writing with a 1 s busy timeout is never refused, also while the erase reclaims', { timeout: 300_000 }, async () => {
    const { path } = await plannedStore(2000);
    padWithForeignPages(path, 100, 40);
    const agent = startAgent(path, 50, 1000);
    stops.push(agent.stop);
    await agent.ready;
    session = ApiSession.withFrozenClock(NOW, { runPacing: { maxBatchItems: 20 } });
    session.open(path);
    // When the reclaim ran, as the progress says (the phase `reclaiming`).
    let reclaimFrom = Infinity;
    const poll = setInterval(() => {
      void call(session!, 'journal.progress', {}).then((p) => {
        if (p.running && p.phase === 'reclaiming' && reclaimFrom === Infinity) reclaimFrom = Date.now();
      });
    }, 20);
    agent.go();
    const receipt = (await call(session, 'memory.erase', { owner: 'Planner@a1' })) as EraseReceipt;
    clearInterval(poll);
    const reclaimTo = Date.now();
    // Give the agent a few more calls after the erase, then stop it.
    await new Promise((r) => setTimeout(r, 300));
    await agent.stop();
    stops.length = 0;
    expect(receipt.counts.memories).toBeGreaterThan(0);
    expect(receipt.reclaim.problems).toEqual([]);
    const failed = agent.calls.filter((c) => !c.ok);
    expect(failed.map((c) => `${c.op}: ${c.error}`)).toEqual([]);
    const adds = agent.calls.filter((c) => c.op === 'add');
    expect(adds.length).toBeGreaterThan(5);
    // The agent wrote while the erase reclaimed (the reclaim is not over before anyone could wait on it).
    expect(adds.filter((c) => c.ok && c.at >= reclaimFrom && c.at <= reclaimTo).length).toBeGreaterThan(0);
  });
});

describe('erase and the free pages (SQLite)', () => {
  it('rewrites the pages another program freed: no byte of the file or its WAL holds the erased text', async () => {
    const clock = steppingClock(NOW);
    const dir = tempDir('mnemo-erase-free-');
    const path = join(dir, 'store.sqlite');
    session = new ApiSession({ clock });
    session.open(path, { create: true });
    await call(session, 'memory.add', { content: `a note about ${CANARY}`, owner: 'coder@1' });
    await call(session, 'memory.add', { content: 'nothing to erase here', owner: 'coder@1' });
    session.close();
    session = null;
    // Another program kept the text in a table of its own and dropped it without secure_delete:
    // its pages went to the freelist as they were.
    const other = new Database(path);
    other.pragma('secure_delete = OFF');
    other.exec('CREATE TABLE foreign_notes (t TEXT)');
    other.prepare('INSERT INTO foreign_notes VALUES (?)').run(`${CANARY} `.repeat(3000));
    other.exec('DROP TABLE foreign_notes');
    other.pragma('wal_checkpoint(TRUNCATE)');
    const freed = other.pragma('freelist_count', { simple: true }) as number;
    other.close();
    expect(freed).toBeGreaterThan(5);
    expect(inFiles(path)).toBeGreaterThan(1000);

    session = new ApiSession({ clock });
    session.open(path);
    clock.step();
    const receipt = (await call(session, 'memory.erase', { match: CANARY })) as EraseReceipt;
    session.close();
    session = null;
    expect(receipt.reclaim).toMatchObject({ method: 'zeroed', problems: [] });
    expect(inFiles(path)).toBe(0);
  });
});
