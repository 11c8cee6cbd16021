/**
 * A value PostgreSQL cannot hold exactly is never changed on the way. A lone UTF-16 surrogate
 * (U+D800..U+DFFF without its pair) is what a JavaScript string can carry and UTF-8 cannot: a SQLite
 * store keeps it as the bytes ED A0 80 (not UTF-8), which read back as three U+FFFD, so a copy
 * turned `coder\uD800` into `coder\uFFFD\uFFFD\uFFFD`, a different owner, without a word. Now `mnemo
 * copy` refuses such a store before it writes anything, naming the table, the row and the column;
 * and a write to a PostgreSQL store that carries a lone surrogate is refused as NUL is
 * (pg-nul-text.ts), with nothing written. Against a real server (a throwaway cluster).
 *
 * What could go wrong: the check missing a column (owner, data) or a table, a copy that writes
 * part of the store before it finds the value, a valid pair (an emoji) or a real U+FFFD refused.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const T0 = 1_750_000_000;
const unavailable = pgUnavailable();


/** A SQLite store with one memory, then `column` of it set (raw, as another program could) to `value`. */
function storeWith(column: 'owner' | 'content', value: string): { path: string; id: string } {
  const path = join(tempDir('mnemo-surrogate-'), 'store.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(T0) });
  const m = createMemory({ content: 'a note about the release train', owner: 'coder@1' }, T0);
  store.add(m, null);
  store.add(createMemory({ content: 'a second, ordinary note 🚆 with a pair and a real \uFFFD', owner: 'coder@1' }, T0), null);
  store.close();
  const db = new Database(path);
  db.prepare(`UPDATE memories SET ${column} = ? WHERE id = ?`).run(value, m.id);
  db.close();
  return { path, id: m.id };
}

describe.skipIf(unavailable)('lone surrogates: refused, never turned into U+FFFD', () => {
  let server: PgServer;
  let admin: SyncPg;
  const url = (schema: string) => `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${schema}`;
  const tablesIn = (schema: string) => Number(admin.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = $1`, [schema])[0]!.n);

  beforeAll(() => {
    server = startPg();
    admin = SyncPg.connect(server.url);
    for (const s of ['sur_owner', 'sur_content', 'sur_ok', 'sur_direct']) admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  }, 120_000);

  afterAll(() => {
    admin?.close();
    server?.stop();
  });

  it('mnemo copy refuses a lone surrogate in an owner, naming the table, row and column, and writes nothing', () => {
    const { path } = storeWith('owner', 'coder\uD800@1');
    const err = errorOf(() => copyStore(path, url('sur_owner')));
    expect(err?.message ?? 'copied', 'copying an owner with a lone surrogate').toMatch(/memories row rowid = 1 holds text that is not UTF-8 in owner/);
    expect(err?.code).toBe('bad_input');
    expect(err?.details).toMatchObject({ table: 'memories', column: 'owner' });
    expect(tablesIn('sur_owner'), 'tables written to the target').toBe(0);
  });

  it('mnemo copy refuses one in content too, and to a SQLite target (the value would change there as well)', () => {
    const { path } = storeWith('content', 'release \uDC00 train');
    expect(errorOf(() => copyStore(path, url('sur_content')))?.details).toMatchObject({ table: 'memories', column: 'content' });
    expect(tablesIn('sur_content')).toBe(0);
    const target = join(tempDir('mnemo-surrogate-'), 'copy.sqlite');
    expect(errorOf(() => copyStore(path, target))?.details).toMatchObject({ table: 'memories', column: 'content' });
  });

  it('keeps a valid surrogate pair and a real U+FFFD exactly', () => {
    const { path } = storeWith('content', 'a note about the release train 🚆');
    expect(errorOf(() => copyStore(path, url('sur_ok')))).toBeNull();
    const contents = admin.query<{ content: string }>(`SELECT content FROM sur_ok.memories ORDER BY rowid`).map((r) => r.content);
    expect(contents).toEqual(['a note about the release train 🚆', 'a second, ordinary note 🚆 with a pair and a real \uFFFD']);
  });

  it('a write to a PostgreSQL store that carries a lone surrogate is refused, with nothing written', () => {
    const store = PgStore.open(url('sur_direct'), { create: true, clock: fixedClock(T0) });
    try {
      for (const [field, input] of [
        ['content', { content: 'half a pair \uD83D here' }],
        ['owner', { content: 'an ordinary note', owner: 'coder\uDE80@1' }],
      ] as const) {
        const m = createMemory(input, T0);
        const err = errorOf(() => store.add(m, null));
        expect(err?.code ?? 'written', `a lone surrogate in ${field}`).toBe('bad_input');
        expect(err?.message).toMatch(/lone surrogate/);
        expect(store.exists(m.id)).toBe(false);
      }
      expect(countMemories(store, { includeArchived: true })).toBe(0);
    } finally {
      store.close();
    }
  });
});
