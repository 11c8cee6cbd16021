/**
 * Issue 37 on PostgreSQL: a cancelled commit, undo or redo leaves the store's schema as it was,
 * every table row for row (rowids included), but the change feed's logs: `mnemo_pg_feed` (and the
 * copied SQLite `mnemo_feed`), which keep the writes and their take-back for the processes that
 * follow them (test/store/long-write-cancel.test.ts says why), and the identity counters, which
 * PostgreSQL never takes back (as SQLite's sqlite_sequence is left out there).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { generateDemo } from '../../core/demo/generate.js';
import { MnemoError } from '../../core/errors.js';
import { planReflection } from '../../core/reflect/plan.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { tempDir } from '../../support/fixture.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { openAt } from '../../support/reflect.js';
import { pgServer } from '../helpers/pg-server.js';

const NOW = 1_780_000_000;
const server = pgServer();
const FEEDS = new Set(['mnemo_pg_feed', 'mnemo_feed']);
const SMALL_BATCHES = { maxBatchItems: 2, pauseMs: 5 };

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

/** Every table of the schema but the feeds, every row in a fixed order, each value as text. */
function dumpSchema(url: string, schema: string): Record<string, string[]> {
  const db = SyncPg.connect(url);
  try {
    const tables = db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`, [schema]).map((r) => r['table_name'] as string);
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      if (FEEDS.has(t)) continue;
      const rows = db.query(`SELECT t::text AS row FROM ${schema}.${t} AS t`).map((r) => r['row'] as string);
      out[t] = rows.sort();
    }
    return out;
  } finally {
    db.close();
  }
}

async function pgPlannedStore(schema: string) {
  const sqlitePath = join(tempDir('mnemo-pgcancel-'), 'store.sqlite');
  const planned = openAt(sqlitePath, NOW, true);
  generateDemo(planned.store, { size: 600, seed: 7, now: NOW });
  const plan = await planReflection(planned);
  planned.close();
  const url = freshSchemaUrl(server.url, schema);
  copyStore(sqlitePath, url);
  return { url, plan };
}

function open(url: string): ApiSession {
  session = ApiSession.withFrozenClock(NOW, { runPacing: SMALL_BATCHES });
  session.open(url);
  session.engine().store.ensureMnemo();
  return session;
}

async function cancelWhen(s: ApiSession, method: 'reflect.apply' | 'journal.undo' | 'journal.redo', input: unknown, when: (p: WriteJobState) => boolean): Promise<void> {
  let finished = false;
  const outcome = call(s, method, input).then(
    () => null,
    (e: unknown) => e,
  );
  void outcome.finally(() => (finished = true));
  for (;;) {
    const p = await call(s, 'journal.progress', {});
    if (p.running && when(p)) break;
    if (finished) throw new Error(`${method} ended before the point to cancel at`);
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(await call(s, 'journal.cancel', {})).toEqual({ cancelled: true });
  const err = await outcome;
  expect(err).toBeInstanceOf(MnemoError);
  expect((err as MnemoError).details).toMatchObject({ cancelled: true });
}

describe.skipIf(server.unavailable)('a cancelled long write on PostgreSQL', () => {
  it('a cancelled commit, undo and redo each leave every table as it was', { timeout: 300_000 }, async () => {
    const schema = 'long_write_cancel';
    const { url, plan } = await pgPlannedStore(schema);
    let s = open(url);
    const before = dumpSchema(server.url, schema);
    await cancelWhen(s, 'reflect.apply', { plan }, (p) => p.phase === 'apply' && p.done > p.total / 3);
    expect(dumpSchema(server.url, schema)).toEqual(before);

    const changeId = (await call(s, 'reflect.apply', { plan })).change_id!;
    s.close();
    session = null;
    const applied = dumpSchema(server.url, schema);
    s = open(url);
    await cancelWhen(s, 'journal.undo', { change_id: changeId }, (p) => p.phase === 'undo' && p.done > p.total / 3);
    expect(dumpSchema(server.url, schema)).toEqual(applied);

    await call(s, 'journal.undo', { change_id: changeId });
    const undone = dumpSchema(server.url, schema);
    await cancelWhen(s, 'journal.redo', { change_id: changeId }, (p) => p.phase === 'redo' && p.done > p.total / 2);
    expect(dumpSchema(server.url, schema)).toEqual(undone);
  });
});
