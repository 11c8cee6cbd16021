/**
 * Index snapshots for engines on a PostgreSQL store (core/store/pg/pg-index-cache.ts): kept in
 * this machine's cache folder, one file per store and per role's view of it, read back on the next
 * open and caught up from the store's change feed.
 *
 * What could go wrong: a second open that still rebuilds; a snapshot that misses what another
 * connection wrote after it, or what retention pruned from the feed before it was read; one store's
 * (or an older incarnation of the schema's, or an operator's) snapshot loaded for another store or
 * for an agent held by row-level security to its own rows; a password written into the cache; an
 * unusable cache folder failing the open instead of costing a rebuild.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { feedStore, foreignChanges, freshIndexes, indexesOf, openIndexed } from '../../support/derived-indexes.js';
import { tempDir } from '../../support/fixture.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { pgServer } from '../helpers/pg-server.js';
import { setFeedRetention } from '../../core/store/queries/feed-retention.js';

const server = pgServer();
const NOW = 1_780_000_000;
const cacheBefore = process.env.MNEMO_INDEX_CACHE_DIR;
let cacheDir = '';

/** Each test its own cache folder, so what one leaves cannot make another pass. */
function useCache(dir = tempDir('mnemo-pg-index-cache-')): string {
  cacheDir = dir;
  process.env.MNEMO_INDEX_CACHE_DIR = dir;
  return dir;
}
afterEach(() => {
  if (cacheBefore === undefined) delete process.env.MNEMO_INDEX_CACHE_DIR;
  else process.env.MNEMO_INDEX_CACHE_DIR = cacheBefore;
});

/** A demo store copied into `schema` (emptied first), opened writable once so it has its change feed. */
function pgStore(schema: string, size?: number): string {
  const url = freshSchemaUrl(server.url, schema);
  copyStore(feedStore(NOW, size), url);
  PgStore.open(url).close();
  return url;
}

const open = (url: string) => openIndexed(url, NOW);
const fresh = (url: string) => freshIndexes(url, NOW);

/** Opens with snapshots, reads every index, closes (writing what it built); returns what it built and warned. */
function warm(url: string): { builds: string[]; warnings: string[] } {
  const o = open(url);
  indexesOf(o.engine);
  o.engine.close();
  return { builds: o.builds, warnings: o.warnings };
}

/** The indexes with keyword scores to 12 significant digits (sums of the same terms in another order). */
function scoresRounded(indexes: ReturnType<typeof indexesOf>) {
  return { ...indexes, keyword: indexes.keyword.map((hits) => hits.map((h) => ({ ...h, score: Number(h.score.toPrecision(12)) }))) };
}

const cacheFiles = () => readdirSync(cacheDir).filter((f) => f.endsWith('.mnemo-index'));

describe.skipIf(server.unavailable)('index snapshots of a PostgreSQL store, in the machine cache', () => {
  it('loads its snapshots on the second open (no rebuild) into indexes equal to a fresh build, and keeps no password', () => {
    useCache();
    const url = pgStore('snap_second');
    // A password in the URL (the test cluster trusts local connections, so it is not checked).
    const withPassword = url.replace('postgres://postgres@', 'postgres://postgres:hunter2secret@');
    const first = warm(withPassword);
    expect(first.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(cacheFiles()).toHaveLength(1);

    const second = open(withPassword);
    const restored = indexesOf(second.engine);
    second.engine.close();
    expect(second.builds).toEqual([]);
    expect(second.warnings).toEqual([]);
    expect(restored).toEqual(fresh(url));
    expect(restored.keyword.some((hits) => hits.length > 0)).toBe(true);

    // Neither the file's name nor anything in the folder holds the password.
    for (const f of readdirSync(cacheDir, { recursive: true, encoding: 'utf8' })) {
      expect(f).not.toContain('hunter2');
      const path = join(cacheDir, f);
      try {
        expect(readFileSync(path).includes('hunter2secret')).toBe(false);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
      }
    }
  });

  it('catches up what another connection wrote between the snapshot and the open', () => {
    useCache();
    const url = pgStore('snap_catch_up');
    warm(url);
    foreignChanges(url, NOW);
    const next = open(url);
    const patched = indexesOf(next.engine);
    next.engine.close();
    expect(next.builds).toEqual([]);
    expect(patched).toEqual(fresh(url));
    expect(patched.corpus.some((s) => String(s.content).startsWith('deploy the database migration'))).toBe(true);
  });

  it('rebuilds when retention pruned feed rows the snapshot had not read, and equals a fresh build', async () => {
    useCache();
    const url = pgStore('snap_pruned');
    warm(url);
    foreignChanges(url, NOW);
    const store = PgStore.open(url, { clock: fixedClock(NOW) });
    setFeedRetention(store, { days: 1, access_days: 1 });
    // Far enough ahead that every feed row, the ones written after the snapshot too, is past the horizon.
    await store.runs.pruneFeed(Math.max(NOW, Date.now() / 1000) + 30 * 86_400);
    store.close();
    const next = open(url);
    const indexes = indexesOf(next.engine);
    next.engine.close();
    expect(next.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(indexes).toEqual(fresh(url));
  });

  it('never loads a snapshot for another schema, a re-created schema, or another role', () => {
    useCache();
    const url = pgStore('snap_one');
    warm(url);
    const other = pgStore('snap_two');
    const onOther = warm(other);
    expect(onOther.builds.length).toBeGreaterThan(0);
    expect(cacheFiles()).toHaveLength(2);

    // The same schema dropped and made again (a new feed epoch), with the same file name in the cache.
    const again = pgStore('snap_one');
    const reopened = open(again);
    const rebuilt = indexesOf(reopened.engine);
    reopened.engine.close();
    expect(reopened.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(reopened.warnings).toEqual([]);
    expect(rebuilt).toEqual(fresh(again));
    expect(cacheFiles()).toHaveLength(2);

    // An agent held to its own and shared rows: half the memories become another role's.
    const admin = SyncPg.connect(server.url);
    try {
      admin.query(`UPDATE snap_one.memories SET owner = CASE WHEN rowid % 2 = 0 THEN 'coder@1' ELSE 'writer@1' END`);
    } finally {
      admin.close();
    }
    warm(again); // the operator's snapshots, patched with the owners' change
    const agentUrl = grantAgent(again, 'coder@1').url;
    const agent = open(agentUrl);
    const agentIndexes = indexesOf(agent.engine);
    agent.engine.close();
    expect(agent.builds).toEqual(expect.arrayContaining(['embed.vectors', 'recall.corpus', 'recall.mnemo.bm25.porter']));
    expect(agentIndexes).toEqual(fresh(agentUrl));
    expect(agentIndexes.corpus.every((s) => s.owner === 'coder@1')).toBe(true);
    expect(cacheFiles()).toHaveLength(3);
    // Each reads its own back: the agent sees its rows only, the operator every row.
    const agentAgain = open(agentUrl);
    expect(indexesOf(agentAgain.engine)).toEqual(agentIndexes);
    agentAgain.engine.close();
    expect(agentAgain.builds).toEqual([]);
    const operatorAgain = open(again);
    const everything = indexesOf(operatorAgain.engine);
    operatorAgain.engine.close();
    expect(operatorAgain.builds).toEqual([]);
    expect(everything.corpus.length).toBeGreaterThan(agentIndexes.corpus.length);
    // Every memory's owner changed since the operator's snapshot: its keyword index re-tokenised
    // them all in the feed's order, so a score's last bit may differ from a build's (row order).
    expect(scoresRounded(everything)).toEqual(scoresRounded(fresh(again)));
    expect(everything.corpus.map((s) => s.owner)).toEqual(fresh(again).corpus.map((s) => s.owner));
  });

  it('works from a cache folder it cannot make (a rebuild and one warning, never an error)', () => {
    const blocker = join(tempDir('mnemo-pg-index-cache-'), 'a-file');
    writeFileSync(blocker, 'not a folder');
    useCache(join(blocker, 'cache'));
    const url = pgStore('snap_unwritable');
    const first = open(url);
    const indexes = indexesOf(first.engine);
    first.engine.close();
    expect(indexes).toEqual(fresh(url));
    expect(first.builds.length).toBeGreaterThan(0);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toMatch(/cannot use the index file .*built in memory instead/);
    const second = open(url);
    indexesOf(second.engine);
    second.engine.close();
    expect(second.builds.length).toBeGreaterThan(0);
  });
});
