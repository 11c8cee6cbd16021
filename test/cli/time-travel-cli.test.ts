/**
 * Time travel at the command line: `mnemo show|list|graph --at T` (the same --json shape as now,
 * a typed refusal before the history starts, an instant in the future is now), `mnemo replay
 * --as-of-then` (a recall re-run against the store as it was when it was logged reproduces its
 * ranking, where a re-run against now does not) and `mnemo diff`.
 */
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPostgresLocation } from '../../core/store/open-location.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { freshStorePath } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';

const T1 = 1_750_000_000; // memories added and linked
const T2 = T1 + 3600; // the recall
const T3 = T1 + 7200; // the top memory edited, another archived, an edge removed

/**
 * Whether two JSON values have the same shape: the same keys with values of the same kinds,
 * recursively (arrays by their elements, where both have some). Null matches a value of any kind,
 * as a nullable field holds either.
 */
function sameShape(a: unknown, b: unknown, path = '$'): string[] {
  if (a === null || b === null) return [];
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return [`${path}: array and ${Array.isArray(a) ? typeof b : typeof a}`];
    return a.length && b.length ? sameShape(a[0], b[0], `${path}[0]`) : [];
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a!).sort();
    const kb = Object.keys(b!).sort();
    if (ka.join() !== kb.join()) return [`${path}: keys ${ka.join(',')} and ${kb.join(',')}`];
    return ka.flatMap((k) => sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return typeof a === typeof b ? [] : [`${path}: ${typeof a} and ${typeof b}`];
}

let db: string;
const ids: Record<string, string> = {};

/**
 * Raw SQL on the store behind Mnemo's back, as a foreign program would run it: on the SQLite file,
 * or on PostgreSQL (the postgres project runs this suite there) on the store's schema, whose name
 * `{schema}` stands for.
 */
function rawSql<T>(sqlite: string, postgres: string, params: unknown[]): T[] {
  if (!isPostgresLocation(db)) {
    const raw = new Database(db);
    try {
      const statement = raw.prepare(sqlite);
      return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
    } finally {
      raw.close();
    }
  }
  const url = parsePgStoreUrl(db);
  const conn = SyncPg.connect(url.connection);
  try {
    return conn.query(postgres.replaceAll('{schema}', `"${url.schema}"`), params) as T[];
  } finally {
    conn.close();
  }
}

async function ok(argv: string[]) {
  const r = await runCli(argv);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

beforeAll(async () => {
  db = freshStorePath();
  await ok(['init', db]);
  const add = async (key: string, content: string, tag: string) => (ids[key] = (await ok(['add', db, content, '--tag', tag, '--now', String(T1), '--json'])).json().id);
  await add('deploy', 'Deploy billing to staging with make deploy-staging', 'deploy');
  await add('rollback', 'Roll back a failed billing deploy with make rollback', 'deploy');
  await add('lunch', 'The team lunch is on Fridays', 'social');
  await ok(['link', db, ids['deploy']!, ids['rollback']!, '--type', 'related', '--now', String(T1)]);
  await ok(['recall', db, 'deploy billing to staging', '--k', '2', '--now', String(T2), '--json']);
  await ok(['add', db, 'Unrelated note about the printer', '--now', String(T3), '--json']);
  await ok(['link', db, ids['deploy']!, ids['rollback']!, '--type', 'related', '--remove', '--now', String(T3)]);
  await ok(['archive', db, ids['rollback']!, '--now', String(T3)]);
  // Edited by hand, as a foreign program would: the top result no longer mentions the query.
  rawSql(
    "UPDATE memories SET content = 'Printer toner is in the cupboard', data = json_set(data, '$.content', 'Printer toner is in the cupboard') WHERE id = ?",
    `UPDATE {schema}.memories SET content = 'Printer toner is in the cupboard', data = jsonb_set(data::jsonb, '{content}', '"Printer toner is in the cupboard"')::text WHERE id = $1`,
    [ids['deploy']],
  );
});

describe('mnemo show|list|graph --at', () => {
  it('shows the store as it was, in exactly the shape it has now', async () => {
    const then = String(T2 - 1);
    const showNow = (await ok(['show', db, ids['deploy']!, '--json'])).json();
    const showThen = (await ok(['show', db, ids['deploy']!, '--at', then, '--json'])).json();
    expect(sameShape(showThen, showNow)).toEqual([]);
    expect(showNow.memory.content).toBe('Printer toner is in the cupboard');
    expect(showThen.memory.content).toBe('Deploy billing to staging with make deploy-staging');
    expect(showThen.outgoing.map((e: { id: string }) => e.id)).toEqual([ids['rollback']]);
    expect(showNow.outgoing).toEqual([]);

    const listNow = (await ok(['list', db, '--archived', 'all', '--json'])).json();
    const listThen = (await ok(['list', db, '--archived', 'all', '--at', then, '--json'])).json();
    expect(sameShape(listThen, listNow)).toEqual([]);
    expect(listNow.total).toBe(4);
    expect(listThen.total).toBe(3);
    expect(listThen.rows.find((r: { id: string }) => r.id === ids['rollback']).archived).toBe(false);

    const graphNow = (await ok(['graph', db, '--json'])).json();
    const graphThen = (await ok(['graph', db, '--at', then, '--json'])).json();
    expect(sameShape(graphThen, graphNow)).toEqual([]);
    expect(graphThen.edges).toEqual([{ src: ids['deploy'], dst: ids['rollback'], type: 'related', weight: 1 }]);
    expect(graphNow.edges).toEqual([]);
    // ISO 8601 names the same instant.
    const iso = new Date((T2 - 1) * 1000).toISOString();
    expect((await ok(['list', db, '--archived', 'all', '--at', iso, '--json'])).json()).toEqual(listThen);
  });

  it('refuses an instant before the history starts, naming the earliest one', async () => {
    const r = await runCli(['list', db, '--at', String(T1 - 86400)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`(epoch ${T1})`);
    expect(r.stderr).toContain(new Date(T1 * 1000).toISOString());
    expect(r.stderr).not.toMatch(/bad_input:|\n\s+at /);
    const bad = await runCli(['show', db, ids['deploy']!, '--at', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--at must be an instant/);
  });

  it('takes an instant in the future for now', async () => {
    const future = String(4_000_000_000);
    expect((await ok(['list', db, '--archived', 'all', '--at', future, '--json'])).json()).toEqual((await ok(['list', db, '--archived', 'all', '--json'])).json());
    expect((await ok(['show', db, ids['deploy']!, '--at', future, '--json'])).json()).toEqual((await ok(['show', db, ids['deploy']!, '--json'])).json());
  });
});

describe('mnemo replay --as-of-then', () => {
  it('reproduces the logged ranking as of then, where a re-run against now does not', async () => {
    const events = rawSql<{ id: number; memory_id: string; rank: number }>(
      "SELECT id, memory_id, rank FROM mnemo_access_events WHERE channel = 'recalled' ORDER BY rank",
      "SELECT id::int AS id, memory_id, rank::int AS rank FROM {schema}.mnemo_access_events WHERE channel = 'recalled' ORDER BY rank",
      [],
    );
    expect(events[0]!.memory_id).toBe(ids['deploy']);
    const now = (await ok(['replay', db, String(events[0]!.id), '--now', String(T3 + 60), '--json'])).json();
    expect(now.as_of).toBeNull();
    expect(now.reproduces_logged_ranking).toBe(false);
    const then = (await ok(['replay', db, String(events[0]!.id), '--as-of-then', '--now', String(T3 + 60), '--json'])).json();
    expect(sameShape(then, now)).toEqual([]);
    expect(then.reproduces_logged_ranking).toBe(true);
    expect(then.rerun.now).toBe(T2);
    expect(then.as_of.at).toBeLessThan(T2);
    expect(then.after.rank).toBe(0);
    expect(then.after.score).toBe(then.before.score);
    const human = await ok(['replay', db, String(events[0]!.id), '--as-of-then']);
    expect(human.stdout).toMatch(/^re-run as of then \(the store at .*, \d+ later changes rolled back/m);
    expect(human.stdout).toContain('the logged ranking is reproduced');
  });
});

describe('mnemo diff', () => {
  it('lists what changed between two instants and who changed it', async () => {
    const d = (await ok(['diff', db, '--from', String(T2), '--to', String(4_000_000_000), '--json'])).json();
    const kinds = Object.fromEntries(d.memories.map((m: { id: string; kind: string }) => [m.id, m.kind]));
    expect(kinds[ids['rollback']!]).toBe('archived');
    expect(kinds[ids['deploy']!]).toBe('changed');
    expect(d.counts.memories.added).toBe(1);
    expect(d.edges).toMatchObject([{ src: ids['deploy'], dst: ids['rollback'], kind: 'unlinked' }]);
    const deploy = d.memories.find((m: { id: string }) => m.id === ids['deploy']);
    expect(deploy.fields).toContain('content');
    expect(deploy.authors.map((a: { kind: string }) => a.kind)).toContain('foreign');
    const human = await ok(['diff', db, '--from', String(T2)]);
    expect(human.stdout).toMatch(/memories: 1 added, 1 changed, 1 archived/);
  });
});
