/**
 * Erasing on PostgreSQL, proved on the server's own bytes: the canary story of
 * test/helpers/erase-canary.ts on a store in a throwaway cluster (support/pg-cluster.ts), then
 * `memory.erase` by match. After it no live row holds the canary (`pg_dump` of the store's schema),
 * no table file under the data directory does once the erase's VACUUM FULL has run and a
 * CHECKPOINT has written the server's buffers out, and neither does any file of this machine's
 * index cache for the store. Before the erase the test finds it in each of those, so a place the
 * erase missed fails here. The server's WAL (pg_wal) is not checked: no store can reach it
 * (docs/security.md, "Erasing").
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { EraseDryRun, EraseReceipt } from '../../core/erase/erase.js';
import { asServerUser, freshSchemaUrl, pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { bytesByFile, CANARY, expectTheRestWorks, holding, occurrences, steppingClock, writeCanaryStory, type CanaryStory } from '../helpers/erase-canary.js';

const unavailable = pgUnavailable();
const START = 1_780_000_000;
const SCHEMA = 'erase_canary';

/** The socket folder the cluster's URL names. */
const hostOf = (url: string) => decodeURIComponent(new URL(url.replace(/^postgres:\/\/[^/]*\//, 'http://x/')).searchParams.get('host') ?? '');

/** Runs one of the server's programs (pg_dump, psql) against it, as the server's user under root. */
function serverProgram(server: PgServer, name: string, args: string[]): string {
  const [cmd, ...rest] = [...asServerUser(), join(server.binDir!, name), '-h', hostOf(server.url), '-U', 'postgres', '-d', 'postgres', ...args];
  return execFileSync(cmd!, rest, { encoding: 'latin1', maxBuffer: 1 << 30 });
}

/** Live rows holding the canary, by table: `pg_dump` of the store's schema, its COPY blocks counted line by line. */
function dumpedRowsByTable(server: PgServer): Record<string, number> {
  const out = serverProgram(server, 'pg_dump', ['-n', SCHEMA]);
  const counts: Record<string, number> = {};
  let table: string | null = null;
  for (const line of out.split('\n')) {
    const copy = /^COPY [^.]+\.(\S+) /.exec(line);
    if (copy) table = copy[1]!.replace(/"/g, '');
    else if (line === '\\.') table = null;
    else if (occurrences(Buffer.from(line, 'latin1')) > 0) counts[table ?? '(schema)'] = (counts[table ?? '(schema)'] ?? 0) + 1;
  }
  return counts;
}

describe.skipIf(unavailable !== null)('erase by match on PostgreSQL', () => {
  const clock = steppingClock(START);
  let server: PgServer;
  let url = '';
  let story: CanaryStory;
  let dumpBefore: Record<string, number> = {};
  let filesBefore: Record<string, number> = {};
  let cacheBefore: Record<string, number> = {};
  let dry: EraseDryRun;
  let receipt: EraseReceipt;
  let session: ApiSession | null = null;
  afterEach(() => {
    session?.close();
    session = null;
  });
  afterAll(() => {
    server?.stop();
  });

  /** Writes the server's dirty buffers into its table files, so the files hold what the rows hold. */
  const checkpoint = () => serverProgram(server, 'psql', ['-c', 'CHECKPOINT']);
  const tableFiles = () => holding({ ...bytesByFile(join(server.dataDir!, 'base')), ...bytesByFile(join(server.dataDir!, 'global')) });
  const indexCache = () => holding(bytesByFile(process.env.MNEMO_INDEX_CACHE_DIR!));

  beforeAll(async () => {
    server = startPg();
    url = freshSchemaUrl(server.url, SCHEMA);
    const writer = new ApiSession({ clock });
    writer.open(url, { create: true });
    story = await writeCanaryStory(writer, clock);
    writer.close(); // writes the index snapshots into this machine's cache
    checkpoint();
    dumpBefore = dumpedRowsByTable(server);
    filesBefore = server.dataDir ? tableFiles() : {};
    cacheBefore = indexCache();
    const eraser = new ApiSession({ clock });
    eraser.open(url);
    dry = await call(eraser, 'memory.erasePlan', { match: CANARY });
    clock.step();
    receipt = await call(eraser, 'memory.erase', { match: CANARY });
    eraser.close();
    checkpoint();
  });

  it('found the canary in the live rows, the table files and the index cache before the erase', () => {
    for (const table of ['memories', 'mnemo_access_events', 'mnemo_journal_rows', 'mnemo_tombstones', 'mnemo_deltas', 'mnemo_dimensions', 'mnemo_pg_feed']) {
      expect(dumpBefore[table] ?? 0, `${table} holds the canary before the erase: ${JSON.stringify(dumpBefore)}`).toBeGreaterThan(0);
    }
    if (server.dataDir) expect(Object.keys(filesBefore).length).toBeGreaterThan(0);
    expect(Object.keys(cacheBefore).length, 'an index snapshot in the cache holds it').toBeGreaterThan(0);
    expect(dry.memories).toEqual({ total: 2, live: 1, gone: 1 });
  });

  it('leaves it in no live row (pg_dump) and in no index cache file; the receipt names it nowhere', () => {
    expect(dumpedRowsByTable(server)).toEqual({});
    expect(indexCache()).toEqual({});
    expect(receipt.reclaim.method).toBe('vacuum_full');
    expect(receipt.reclaim.problems).toEqual([]);
    expect(receipt.reclaim.rewrote).toEqual(expect.arrayContaining(['memories', 'mnemo_journal_rows', 'mnemo_pg_feed', 'mnemo_access_events', 'mnemo_deltas']));
    expect(receipt.not_reached.join(' ')).toMatch(/write-ahead log/);
    expect(JSON.stringify(receipt)).not.toContain(CANARY);
  });

  it('leaves it in no table file under the data directory once the VACUUM FULL ran', (ctx) => {
    if (!server.dataDir) return ctx.skip('the server is one named by MNEMO_TEST_PG_URL: its data directory is not this test\'s to read');
    expect(tableFiles()).toEqual({});
  });

  it('keeps every other memory, its history and its undo; time travel shows the erased one as erased', async () => {
    session = new ApiSession({ clock });
    session.open(url);
    await expectTheRestWorks(session, story, receipt);
  });
});
