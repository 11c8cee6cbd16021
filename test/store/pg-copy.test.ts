/**
 * `mnemo copy` between SQLite and PostgreSQL, against a real server (MNEMO_TEST_PG_URL, or a
 * throwaway cluster from support/pg-cluster.ts; .ci/run installs PostgreSQL so CI never skips).
 *
 * What could go wrong: a value changed on the way (a float's last bit, −0, a 64-bit integer through
 * a JavaScript number, a blob, odd unicode, an empty string turned NULL), a storage class changed
 * (an integer coming back as a real), rowids renumbered (nooa's order), the feed's sequence reset,
 * triggers logging the copied rows again, indexes or the evidence index missing; a copy killed
 * midway leaving duplicates or gaps; a copy writing into a store it should refuse; a value that
 * PostgreSQL cannot hold (NUL) silently altered.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { generateDemo } from '../../core/demo/generate.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { FIXTURE_STORE, fixtureFileCopy, tempDir } from '../../support/fixture.js';
import { dumpStore } from '../helpers/store-dump.js';
import { nooaReference } from '../helpers/nooa-reference.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOW = 1_780_000_000;

const unavailable = pgUnavailable();


/** What nooa reads from a store (a copy of it: nooa's open may migrate). */
function nooaReads(src: string, path: string): unknown {
  const copy = join(tempDir('mnemo-nooa-read-'), 'store.sqlite');
  copyStore(path, copy);
  const r = spawnSync('python3', [join(ROOT, 'support', 'nooa-read.py'), src, copy, String(NOW)], { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new Error(`could not run python3 for the nooa-memory reference: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`the nooa-memory reference failed (exit ${r.status}): ${r.stderr.trim()}`);
  return JSON.parse(r.stdout);
}

let deep: unknown = 'bottom';
for (let i = 0; i < 60; i++) deep = i % 2 ? { [`k${i}`]: deep, '\u00e9': [i, -0.0, 1e-7] } : [deep, null, true];

/** A demo store plus rows at the edges of what each table may hold. */
function hostileStore(): string {
  const path = join(tempDir('mnemo-pg-copy-'), 'source.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
  generateDemo(store, { size: 120, seed: 17, now: NOW });
  store.close();
  const db = new Database(path);
  db.defaultSafeIntegers(true);
  const template = db.prepare('SELECT * FROM memories ORDER BY rowid LIMIT 1').get() as Record<string, unknown>;
  const data = JSON.parse(template['data'] as string) as Record<string, unknown>;
  const odd = ['\u{1F600}\u200D\u{1F4BB} e\u0301 \u202Eevil\u202C \u2028\u2029 \uFEFF', '', 'tab\tquote" back\\slash \' $1 %_'];
  const insert = db.prepare(
    'INSERT INTO memories(rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  odd.forEach((content, i) => {
    const id = `odd-${i}-\u00fc`;
    insert.run(
      [9_007_199_254_740_993n, 4_611_686_018_427_387_904n, -5n][i]!,
      id,
      i === 2 ? 'todo' : 'info',
      content,
      // Within nooa's ranges (importance 0-10, salience 0-1), so nooa can read them back.
      [1e-300, 9.999999999999998, 10][i]!,
      [0.1 + 0.2, -0, 5e-324][i]!,
      [9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n, 0n][i]!,
      NOW - i,
      NOW + 0.123456789012345,
      BigInt(i),
      BigInt(i % 2),
      ['', 'coder@1', 'CODER@9'][i]!,
      [null, null, 'done'][i]!,
      [Buffer.alloc(0), Buffer.from([0, 255, 0, 1]), null][i]!,
      JSON.stringify({ ...data, id, content, type: i === 2 ? 'todo' : 'info', status: i === 2 ? 'done' : null }),
    );
  });
  // Feed rows: an update and a delete by a writer that is not Mnemo (the triggers log them).
  db.prepare("UPDATE memories SET content = content || ' (edited)' WHERE id = 'odd-2-\u00fc'").run();
  db.prepare('DELETE FROM memories WHERE rowid = (SELECT max(rowid) FROM memories WHERE id NOT LIKE ?)').run('odd-%');
  db.prepare('INSERT INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)').run('odd-0-\u00fc', 'odd-1-\u00fc', 'related', Number.MIN_VALUE, 0);
  db.prepare('INSERT INTO maintenance_log(ts, kind, report) VALUES (?, ?, ?)').run(NOW, 'reflect', JSON.stringify({ deep }));
  db.prepare('INSERT INTO mnemo_meta(key, value) VALUES (?, ?)').run('odd \u{1F600}', '');
  db.prepare('INSERT INTO mnemo_access_events(memory_id, ts, channel, score, rank, components) VALUES (?, ?, ?, ?, ?, ?)').run('odd-0-\u00fc', 1.7976931348623157e308, 'recall', Infinity, -1n, JSON.stringify(deep));
  db.prepare('INSERT INTO mnemo_journal(id, ts, label, kind, counts, undone_seq) VALUES (?, ?, ?, ?, ?, ?)').run(7n, NOW, 'r\u00e9flexion', 'reflect', '{}', 9_223_372_036_854_775_806n);
  db.prepare('INSERT INTO mnemo_journal_rows(change_id, key, before, after) VALUES (?, ?, ?, ?)').run(7n, 'm:odd-0-\u00fc', null, JSON.stringify(deep));
  db.prepare('INSERT INTO mnemo_tombstones(hash, memory_id, owner, ts, head) VALUES (?, ?, ?, ?, ?)').run('h1', 'gone', 'coder@1', -1.5, '');
  for (const entity of ['Z', 'a', '\u00e9', '\u{1F600}', 'A@', 'a b']) {
    db.prepare('INSERT INTO mnemo_dimensions(entity, attribute, distribution, t_last, deltas, mode) VALUES (?, ?, ?, ?, ?, ?)').run(entity, 'state', '{"up":1.0}', NOW, 1n, null);
  }
  db.prepare('INSERT INTO mnemo_entity_aliases(alias, canonical, divergence, shared, merged_at) VALUES (?, ?, ?, ?, ?)').run('db', 'database', 0.25, 3n, NOW);
  db.prepare('INSERT INTO mnemo_alias_rejections(a, b, rejected_at) VALUES (?, ?, ?)').run('x', 'y', NOW);
  db.prepare('INSERT INTO mnemo_agent_credentials(id, owner, token_hash, label, created_at) VALUES (?, ?, ?, ?, ?)').run('c1', 'coder@1', 'abc', null, NOW);
  db.prepare('INSERT INTO mnemo_profiles(name, base, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run('fitted', 'mnemo', JSON.stringify({ w: [0.1, 1e21] }), NOW, NOW);
  // The feed's sequence ahead of its rows, as after pruning: it must never hand out a used number again.
  db.prepare("UPDATE sqlite_sequence SET seq = seq + 1000 WHERE name = 'mnemo_feed'").run();
  db.close();
  return path;
}

describe('mnemo copy between SQLite and a real PostgreSQL server', () => {
  let server: PgServer | null = null;
  let source = '';
  let sourceDump: Record<string, unknown> = {};
  const storeUrl = (schema: string) => `${server!.url}${server!.url.includes('?') ? '&' : '?'}schema=${schema}`;
  const pgAdmin = () => SyncPg.connect(server!.url);

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const admin = pgAdmin();
    for (const schema of ['copy_rt', 'copy_fx', 'copy_nooa', 'copy_killed', 'copy_nul', 'copy_odd', 'copy_live', 'copy_changed']) admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    admin.close();
    source = hostileStore();
    sourceDump = dumpStore(source);
  }, 120_000);

  afterAll(() => server?.stop());

  it('SQLite → PostgreSQL → SQLite gives back every table, row, value and storage class; so does SQLite → SQLite', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const dir = tempDir('mnemo-pg-copy-');
    const there = copyStore(source, storeUrl('copy_rt'), { batchRows: 7 });
    expect(there.rows).toBeGreaterThan(1000);
    const back = join(dir, 'back.sqlite');
    copyStore(storeUrl('copy_rt'), back, { batchRows: 5 });
    expect(dumpStore(back)).toEqual(sourceDump);
    const direct = join(dir, 'direct.sqlite');
    copyStore(source, direct);
    expect(dumpStore(direct)).toEqual(sourceDump);
    // The copy is a working store: the feed's triggers are back (a change is logged) and its number follows the source's.
    const db = new Database(back);
    const seqBefore = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").pluck().get() as number;
    db.prepare("UPDATE memories SET content = 'after the copy' WHERE id = 'odd-1-\u00fc'").run();
    expect(db.prepare('SELECT seq, op FROM mnemo_feed ORDER BY seq DESC LIMIT 1').get()).toEqual({ seq: seqBefore + 1, op: 'update' });
    // The evidence index is rebuilt: a word of the source's evidence finds the same deltas.
    const src = new Database(source, { readonly: true });
    const word = (src.prepare("SELECT evidence FROM mnemo_deltas WHERE evidence != '' ORDER BY id LIMIT 1").pluck().get() as string).match(/[A-Za-z]{4,}/)![0];
    const found = (d: Database.Database) => d.prepare('SELECT rowid FROM mnemo_delta_fts WHERE mnemo_delta_fts MATCH ? ORDER BY rowid').pluck().all(`"${word}"`);
    expect(found(db).length).toBeGreaterThan(0);
    expect(found(db)).toEqual(found(src));
    src.close();
    db.close();
  });

  it('keeps the values exactly in PostgreSQL too, with the types the schema promises', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const pg = pgAdmin();
    const row = pg.query<Record<string, unknown>>(
      "SELECT rowid::text AS rowid, strength::text AS strength, salience::text AS salience, importance::text AS importance, encode(embedding, 'hex') AS embedding, content, owner FROM copy_rt.memories WHERE id = $1",
      ['odd-1-\u00fc'],
    )[0];
    expect(row).toEqual({ rowid: '4611686018427387904', strength: '-9223372036854775808', salience: '0', importance: '9.999999999999998', embedding: '00ff0001', content: '', owner: 'coder@1' });
    const types = pg.query<{ column_name: string; data_type: string; collation_name: string | null }>(
      "SELECT column_name, data_type, collation_name FROM information_schema.columns WHERE table_schema = 'copy_rt' AND table_name = 'memories' AND column_name IN ('importance', 'strength', 'owner', 'embedding', 'data') ORDER BY column_name",
    );
    expect(types).toEqual([
      { column_name: 'data', data_type: 'text', collation_name: 'C' },
      { column_name: 'embedding', data_type: 'bytea', collation_name: null },
      { column_name: 'importance', data_type: 'double precision', collation_name: null },
      { column_name: 'owner', data_type: 'text', collation_name: 'C' },
      { column_name: 'strength', data_type: 'bigint', collation_name: null },
    ]);
    pg.close();
  });

  it('brings the nooa fixture back byte for byte, and nooa reads the same rows from it', { timeout: 120_000, tags: ['external-data'] }, (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const back = join(tempDir('mnemo-pg-copy-'), 'fixture-back.sqlite');
    copyStore(FIXTURE_STORE, storeUrl('copy_fx'));
    copyStore(storeUrl('copy_fx'), back);
    expect(dumpStore(back)).toEqual(dumpStore(FIXTURE_STORE));
    // nooa-only in, nooa-only out: no Mnemo tables appear on the way.
    expect(Object.keys(dumpStore(back)).filter((t) => t.startsWith('mnemo_'))).toEqual([]);
    const nooa = nooaReference();
    if (!nooa.src) {
      console.log(`nooa reading the copies: skipped, ${nooa.missing}`);
      return;
    }
    expect(nooaReads(nooa.src, back)).toEqual(nooaReads(nooa.src, FIXTURE_STORE));
    const demoBack = join(tempDir('mnemo-pg-copy-'), 'demo-back.sqlite');
    copyStore(source, storeUrl('copy_nooa'));
    copyStore(storeUrl('copy_nooa'), demoBack);
    expect(nooaReads(nooa.src, demoBack)).toEqual(nooaReads(nooa.src, source));
  });

  it('refuses what it cannot copy exactly, with a typed error naming the row and the fix, and writes nothing', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const withNul = fixtureFileCopy();
    const db = new Database(withNul);
    const id = db.prepare('SELECT id FROM memories ORDER BY rowid LIMIT 1 OFFSET 3').pluck().get() as string;
    db.prepare(`UPDATE memories SET content = 'before' || char(0) || 'after' WHERE id = ?`).run(id);
    db.close();
    const refused = (() => {
      try {
        copyStore(withNul, storeUrl('copy_nul'));
      } catch (err) {
        return err as MnemoError;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(MnemoError);
    expect(refused!.code).toBe('bad_input');
    expect(refused!.details).toMatchObject({ table: 'memories', column: 'content' });
    expect(refused!.message).toContain('NUL');
    expect(refused!.message).toContain('replace(content');
    const pg = pgAdmin();
    expect(pg.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'copy_nul'")).toEqual([]);
    // SQLite keeps a NUL: SQLite → SQLite copies it as it is.
    const kept = join(tempDir('mnemo-pg-copy-'), 'nul.sqlite');
    copyStore(withNul, kept);
    expect(dumpStore(kept)).toEqual(dumpStore(withNul));

    const oddClass = fixtureFileCopy();
    const odd = new Database(oddClass);
    odd.prepare("UPDATE memories SET importance = 'high' WHERE id = ?").run(id);
    odd.close();
    expect(() => copyStore(oddClass, storeUrl('copy_odd'))).toThrow(/holds a text value in importance, which is declared REAL/);
    expect(pg.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'copy_odd'")).toEqual([]);
    pg.close();

    // A target that already holds a store is refused, SQLite or PostgreSQL.
    expect(() => copyStore(FIXTURE_STORE, storeUrl('copy_rt'))).toThrow(/already holds a store/);
    expect(() => copyStore(FIXTURE_STORE, source)).toThrow(/already holds a store/);
    expect(() => copyStore(FIXTURE_STORE, server!.url)).toThrow(/names no schema/);
    expect(() => parsePgStoreUrl(`${storeUrl('Bad-Name')}`)).toThrow(/lower-case letters/);
  });

  it('copies the store as it was when the copy began while another process writes it; a resume after such a write is refused', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const live = join(tempDir('mnemo-pg-copy-'), 'live.sqlite');
    copyStore(source, live);
    const before = dumpStore(live);
    const writer = new Database(live); // a second connection: another writer on the same file, as an agent would be
    const writeMeanwhile = () => {
      writer.prepare("UPDATE memories SET content = 'changed meanwhile' WHERE rowid = (SELECT max(rowid) FROM memories)").run(); // a row the copy reaches later
      writer.prepare("INSERT INTO mnemo_access_events(memory_id, ts, channel) VALUES ('odd-0-\u00fc', ?, 'recall')").run(NOW + 1);
    };
    let wrote = false;
    copyStore(live, storeUrl('copy_live'), {
      batchRows: 50,
      onProgress: () => {
        if (!wrote) writeMeanwhile();
        wrote = true;
      },
    });
    const back = join(tempDir('mnemo-pg-copy-'), 'live-back.sqlite');
    copyStore(storeUrl('copy_live'), back);
    expect(dumpStore(live)).not.toEqual(before);
    expect(dumpStore(back)).toEqual(before);

    // An interrupted copy, then a write to the source: resuming would mix two states, so it is refused.
    expect(() =>
      copyStore(live, storeUrl('copy_changed'), {
        batchRows: 50,
        onProgress: () => {
          throw new Error('interrupted');
        },
      }),
    ).toThrow('interrupted');
    writeMeanwhile();
    writer.close();
    expect(() => copyStore(live, storeUrl('copy_changed'), { resume: true })).toThrow(/unfinished copy of another store, or of .* as it was before it changed/);
  });

  it('resumes after kill -9, in both directions, without duplicates or gaps', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const total = Object.entries(sourceDump).reduce((n, [t, rows]) => n + (Array.isArray(rows) && t !== 'sqlite_sequence' && !t.startsWith('mnemo_delta_fts') ? rows.length : 0), 0);
    const target = storeUrl('copy_killed');
    const pg = pgAdmin();
    const copiedInPg = () => {
      try {
        return pg.query<{ value: string }>("SELECT value FROM copy_killed.mnemo_copy_progress WHERE name LIKE 'table:%'").reduce((n, r) => n + (JSON.parse(r.value) as { rows: number }).rows, 0);
      } catch {
        return 0;
      }
    };
    expect(await copyAndKill(source, target, copiedInPg, Math.floor(total / 3))).toBe('killed');
    const partial = copiedInPg();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(total);
    pg.close();
    // Without --resume, the interrupted copy is named and left alone.
    const again = runCopy([source, target]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('rerun with --resume');
    const resumed = runCopy([source, target, '--resume', '--json']);
    expect(resumed.status, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout.trim().split('\n').pop()!) as { resumed: boolean; rows: number; copied_now: number };
    expect(summary).toMatchObject({ resumed: true, rows: total, copied_now: total - partial });

    const back = join(tempDir('mnemo-pg-copy-'), 'killed-back.sqlite');
    const copiedInSqlite = () => {
      if (!existsSync(back)) return 0;
      try {
        const db = new Database(back, { readonly: true });
        try {
          return (db.prepare("SELECT value FROM mnemo_copy_progress WHERE name LIKE 'table:%'").pluck().all() as string[]).reduce((n, v) => n + (JSON.parse(v) as { rows: number }).rows, 0);
        } finally {
          db.close();
        }
      } catch {
        return 0;
      }
    };
    expect(await copyAndKill(target, back, copiedInSqlite, Math.floor(total / 3))).toBe('killed');
    expect(copiedInSqlite()).toBeLessThan(total);
    const finished = runCopy([target, back, '--resume']);
    expect(finished.status, finished.stderr).toBe(0);
    expect(dumpStore(back)).toEqual(sourceDump);
  }, 180_000);
});

function runCopy(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'copy', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts a copy in small batches and kills it with SIGKILL once `atLeast` rows are committed in the target. */
function copyAndKill(from: string, to: string, copied: () => number, atLeast: number): Promise<'killed' | 'finished'> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'copy', from, to, '--batch', '3'], { cwd: ROOT, stdio: 'ignore' });
    const poll = setInterval(() => {
      if (copied() >= atLeast) child.kill('SIGKILL');
    }, 5);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearInterval(poll);
      resolvePromise(signal === 'SIGKILL' ? 'killed' : 'finished');
    });
  });
}
