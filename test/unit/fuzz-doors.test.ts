/**
 * Issue 13, acceptance: a fuzz test of the import and the API with random and adversarial JSON
 * (depth, sizes, numbers, unicode, prototype keys). Every call either succeeds or is refused with a
 * typed error that is not `internal`; afterwards the store still recalls, lists, explains and
 * fires intents, every row's `data` is readable JSON, and on SQLite `PRAGMA integrity_check` is ok.
 * Seeded, so a failure replays: the seed and the call are in the failure message. Runs on both
 * backends (vitest.config.ts POSTGRES_SUITES): PostgreSQL refuses other values than SQLite (a NUL
 * character in text), and must refuse them with a typed error too.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { importJsonl } from '../../core/engine/jsonl.js';
import { MnemoError } from '../../core/errors.js';
import { runCli } from '../helpers/cli.js';
import { agentOn } from '../helpers/agents.js';
import { connectInProcess, textOf } from '../helpers/mcp.js';
import { tempDir } from '../../support/fixture.js';
import { storeFrom, testBackend } from '../../support/test-backend.js';
import { parsePgStoreUrl, ident } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const SEED = 0x13_2026;
const NOW = 1_780_000_000;

/** mulberry32: a tiny seeded generator, good enough to pick fuzz cases reproducibly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const NUMBERS = [0, -0, 1, -1, 0.5, 5, 10, 10.000001, -5, 1e308, -1e308, 1e300, -1e300, 5e-324, 2 ** 53, 2 ** 53 + 2, NOW, NOW * 1000, 253_402_300_800, Number.NaN, Infinity, -Infinity];
const STRINGS = [
  '',
  ' ',
  'deploy',
  'time',
  'cue',
  'CRITICAL',
  'open',
  'related',
  '*',
  'coder@1',
  'a'.repeat(300),
  '\u0000',
  'deploy\u0000now', // a NUL inside a value: SQLite text keeps it, PostgreSQL text cannot
  '\u2028\u2029',
  '\r\n',
  '\ud800', // a lone surrogate
  '\udfff\ud800',
  '😀'.repeat(50),
  'ünïcødé ñ',
  '%E0%A4%A',
  '../../etc/passwd',
  "'; DROP TABLE memories; --",
  '{"a":1}',
  '1970-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
];
/** Around our limit (64), SQLite's JSON limit (1000) and zod's stack (a few thousand). */
const DEPTHS = [3, 62, 63, 64, 65, 200, 999, 1001, 1200, 5000];
const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'kind', 'cue', 'fire_at', 'content', 'id', 'x', '', '\u0000', '😀'];

/** An array or object nested `n` deep, built without recursion. */
function nested(n: number, rng: Rng): unknown {
  let v: unknown = rng.pick([[], {}, 'leaf', 1]);
  for (let i = 0; i < n; i++) v = rng.chance(0.5) ? [v] : { [rng.pick(KEYS)]: v };
  return v;
}

function randomValue(rng: Rng, depth = 0): unknown {
  const r = rng.next();
  if (r < 0.2) return rng.pick(NUMBERS);
  if (r < 0.4) return rng.pick(STRINGS);
  if (r < 0.45) return rng.pick([null, true, false, undefined]);
  if (r < 0.5) return nested(rng.pick(DEPTHS), rng);
  if (r < 0.53) return 'x'.repeat(rng.pick([10_001, 100_001, 1_000_001]));
  if (r < 0.55) return Array.from({ length: rng.pick([201, 1001, 20_000]) }, (_, i) => `t${i}`);
  if (depth > 3) return rng.pick(STRINGS);
  if (r < 0.78) return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = rng.int(4); i > 0; i--) Object.defineProperty(o, rng.pick(KEYS), { value: randomValue(rng, depth + 1), enumerable: true, configurable: true, writable: true });
  return o;
}

/** A valid input with some fields replaced by adversarial values, or extra keys added. */
function mutate(rng: Rng, base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  const keys = Object.keys(base);
  for (let i = 1 + rng.int(3); i > 0; i--) {
    // defineProperty, so `__proto__` becomes an own key exactly as JSON.parse would make it.
    const key = rng.chance(0.8) && keys.length ? rng.pick(keys) : rng.pick(KEYS);
    Object.defineProperty(out, key, { value: randomValue(rng), enumerable: true, configurable: true, writable: true });
  }
  // Inside an open-ended object (a trigger, a patch, a range), where a schema may let unknown keys through.
  const inner = keys.filter((k) => base[k] !== null && typeof base[k] === 'object' && !Array.isArray(base[k]));
  if (inner.length && rng.chance(0.4)) {
    const k = rng.pick(inner);
    const value = rng.chance(0.5) ? nested(rng.pick(DEPTHS), rng) : randomValue(rng);
    out[k] = { ...(base[k] as object), [rng.pick(KEYS)]: value };
  }
  return out;
}

const API_BASES: [string, () => Record<string, unknown>][] = [
  ['memory.add', () => ({ content: 'deploy note', type: 'intent', trigger: { kind: 'time', fire_at: NOW - 5 }, importance: 5, tags: ['deploy'] })],
  ['memory.add', () => ({ content: 'a fact', title: 't', valid_from: NOW, references: [{ kind: 'var', key: 'plan', captured_at: NOW }] })],
  ['memory.update', () => ({ id: 'fuzz-target-01', patch: { title: 'changed', trigger: { kind: 'cue', cue: 'deploy' } } })],
  ['memory.list', () => ({ text: 'deploy', tags: ['deploy'], importance: { min: 1, max: 9 }, sort: 'importance', limit: 50 })],
  ['recall.run', () => ({ query: 'deploy', k: 5 })],
  ['recall.explain', () => ({ query: 'deploy the service', k: 5 })],
  ['graph.view', () => ({ focus: 'fuzz-target-01', hops: 2 })],
  ['memory.facets', () => ({})],
  ['intents.due', () => ({ now: NOW, message: 'deploy', events: ['Error'] })],
  ['intents.list', () => ({ state: 'all' })],
  ['edge.add', () => ({ src: 'fuzz-target-01', dst: 'fuzz-target-01', type: 'related', weight: 0.5 })],
  ['memory.tag', () => ({ ids: ['fuzz-target-01'], add: ['x'] })],
  ['access.list', () => ({ limit: 10 })],
];

const MCP_BASES: [string, () => Record<string, unknown>][] = [
  ['remember', () => ({ content: 'deploy fact', type: 'info', importance: 'HIGH', tags: ['deploy'], title: 't' })],
  ['recall', () => ({ query: 'deploy', k: 3 })],
  ['search', () => ({ query: 'deploy', k: 3 })],
  ['intent_add', () => ({ content: 'remind', trigger: { kind: 'time', fire_at: NOW - 5 }, opens_todo: true })],
  ['intent_add', () => ({ content: 'remind', trigger: { kind: 'cue', cue: 'deploy' } })],
  ['intents_due', () => ({ message: 'deploy', events: ['Error'] })],
  ['update_memory', () => ({ memory_id: 'fuzz-target-01', title: 'x' })],
  ['todo_open', () => ({ content: 'do it', importance: 'LOW' })],
  ['todo_list', () => ({ status: 'all' })],
];

const IMPORT_BASE = () => ({ id: 'fuzz-import-0', type: 'intent', content: 'deploy imported', created_at: NOW, importance: 5, trigger: { kind: 'cue', cue: 'deploy' }, tags: ['a'], access_log: [{ ts: NOW, channel: 'created' }] });

let dir = '';
let path = '';
/** The store the calls go to: the SQLite file, or on the postgres project a PostgreSQL copy of it. */
let store = '';
let session: ApiSession;

beforeAll(async () => {
  dir = tempDir();
  path = join(dir, 'fuzz.sqlite');
  expect((await runCli(['demo', path, '--size', '40', '--seed', '3', '--now', String(NOW)])).code).toBe(0);
  session = new ApiSession({ clock: fixedClock(NOW), engineOptions: { onWarning: () => {} } });
  store = storeFrom(path);
  session.open(store);
  await call(session, 'memory.add', { id: 'fuzz-target-01', content: 'deploy target', type: 'intent', trigger: { kind: 'cue', cue: 'deploy' } });
}, 60_000);

afterAll(() => session?.close());

describe(`fuzzing the doors (seed ${SEED})`, () => {
  it('the API answers every adversarial input with a value or a typed, non-internal error', async () => {
    const rng = prng(SEED);
    const outcomes = { ok: 0, refused: 0 };
    for (let i = 0; i < 500; i++) {
      const [method, base] = rng.pick(API_BASES);
      const input = rng.chance(0.1) ? randomValue(rng) : mutate(rng, base());
      const r = await invoke(session, method, input);
      if (!r.ok) expect(r.error.code, `call ${i}: ${method} → ${r.error.message.slice(0, 300)}`).not.toBe('internal');
      outcomes[r.ok ? 'ok' : 'refused']++;
    }
    // Not vacuous: the mutations leave some inputs valid and make others invalid.
    expect(outcomes.ok).toBeGreaterThan(20);
    expect(outcomes.refused).toBeGreaterThan(20);
  }, 60_000);

  it('a NUL character in any string of a valid call gives a value or a typed, non-internal error', async () => {
    // Not left to chance: every string a valid call holds, at any depth, in turn.
    const withNul = (value: unknown, at: number, seen = { n: 0 }): unknown => {
      if (typeof value === 'string') return seen.n++ === at ? `${value}\u0000${value}` : value;
      if (Array.isArray(value)) return value.map((v) => withNul(v, at, seen));
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNul(v, at, seen)]));
      return value;
    };
    let calls = 0;
    const agent = agentOn(store, '', { clock: fixedClock(NOW) });
    const mcp = await connectInProcess(agent);
    try {
      for (const [method, base] of API_BASES) {
        for (let at = 0; ; at++) {
          const seen = { n: 0 };
          const input = withNul(base(), at, seen);
          if (seen.n <= at) break;
          const r = await invoke(session, method, input);
          if (!r.ok) expect(r.error.code, `${method} ${JSON.stringify(input)} → ${r.error.message.slice(0, 300)}`).not.toBe('internal');
          calls++;
        }
      }
      for (const [tool, base] of MCP_BASES) {
        for (let at = 0; ; at++) {
          const seen = { n: 0 };
          const input = withNul(base(), at, seen);
          if (seen.n <= at) break;
          const r = await mcp.call(tool, input as Record<string, unknown>);
          if (r.isError) expect(textOf(r), `${tool} ${JSON.stringify(input)}`).not.toMatch(/^internal|Maximum call stack/);
          calls++;
        }
      }
    } finally {
      await mcp.close();
      agent.close();
    }
    expect(calls).toBeGreaterThan(30);
  }, 60_000);

  it('import takes a valid line or refuses the file with bad_input, all or nothing', async () => {
    const rng = prng(SEED + 1);
    const engine = session.engine();
    const outcomes = { imported: 0, refused: 0 };
    for (let i = 0; i < 120; i++) {
      const lines: string[] = [];
      for (let j = 0, n = 1 + rng.int(2); j < n; j++) {
        // Half the lines stay valid, so whole files import too and the store grows under the fuzz.
        const rec = { ...(rng.chance(0.5) ? IMPORT_BASE() : mutate(rng, IMPORT_BASE())), id: `fuzz-import-${i}-${j}` };
        let text: string;
        try {
          text = JSON.stringify(rec);
        } catch {
          text = '{"id": "unstringifiable"'; // JSON.stringify cannot write some values (5000 deep is fine; cycles are not made here)
        }
        lines.push(rng.chance(0.05) ? text.slice(0, rng.int(text.length)) : text);
      }
      const before = countMemories(engine.store, { includeArchived: true });
      try {
        const res = await importJsonl(engine, lines.join('\n'), { onConflict: 'skip' });
        expect(res.imported + res.skipped).toBe(lines.length);
        outcomes.imported++;
      } catch (err) {
        outcomes.refused++;
        expect(err, `file ${i}: ${(err as Error).message.slice(0, 300)}`).toBeInstanceOf(MnemoError);
        expect((err as MnemoError).code).toBe('bad_input');
        expect(countMemories(engine.store, { includeArchived: true })).toBe(before);
      }
    }
    expect(outcomes.imported).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(5);
  }, 60_000);

  it('the MCP tools answer every adversarial argument with a result or a tool error that is not internal', async () => {
    const rng = prng(SEED + 2);
    const agent = agentOn(store, '', { clock: fixedClock(NOW) });
    const mcp = await connectInProcess(agent);
    try {
      const outcomes = { ok: 0, refused: 0 };
      for (let i = 0; i < 120; i++) {
        const [tool, base] = rng.pick(MCP_BASES);
        const r = await mcp.call(tool, rng.chance(0.3) ? base() : mutate(rng, base()));
        if (r.isError) expect(textOf(r), `call ${i}: ${tool}`).not.toMatch(/^internal|Maximum call stack/);
        outcomes[r.isError ? 'refused' : 'ok']++;
      }
      expect(outcomes.ok).toBeGreaterThan(20);
      expect(outcomes.refused).toBeGreaterThan(20);
    } finally {
      await mcp.close();
      agent.close();
    }
  }, 60_000);

  it('afterwards the store reads everywhere, every row is readable JSON, and integrity_check is ok', async () => {
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect((await call(session, 'recall.run', { query: 'deploy', k: 5 })).items.length).toBeGreaterThan(0);
    expect((await call(session, 'recall.explain', { query: 'deploy', k: 5 })).rows.length).toBeGreaterThan(0);
    expect((await call(session, 'memory.list', { limit: 5000 })).total).toBeGreaterThan(40);
    await call(session, 'memory.list', { text: 'deploy', tags: ['a'] });
    await call(session, 'graph.view', { limit: 5000 });
    await call(session, 'memory.facets', {});
    await call(session, 'intents.list', {});
    await call(session, 'intents.due', { now: NOW + 86_400, message: 'deploy' });
    await call(session, 'todos.list', { status: 'all' });
    if (testBackend() === 'sqlite') {
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.prepare('SELECT id FROM memories WHERE NOT json_valid(data)').all()).toEqual([]);
        const maxLen = db.prepare('SELECT max(length(content)) AS n FROM memories').get() as { n: number };
        expect(maxLen.n).toBeLessThanOrEqual(1_000_000);
      } finally {
        db.close();
      }
      return;
    }
    // PostgreSQL keeps `data` as text (core/store/pg/pg-schema.ts): every row must still parse.
    const url = parsePgStoreUrl(store);
    const pg = SyncPg.connect(url.connection);
    try {
      const rows = pg.query<{ id: string; data: string; n: number }>(`SELECT id, data, length(content) AS n FROM ${ident(url.schema)}.memories`);
      expect(rows.length).toBeGreaterThan(40);
      const unreadable = rows.filter((r) => {
        try {
          JSON.parse(r.data);
          return false;
        } catch {
          return true;
        }
      });
      expect(unreadable.map((r) => r.id)).toEqual([]);
      expect(Math.max(...rows.map((r) => r.n))).toBeLessThanOrEqual(1_000_000);
    } finally {
      pg.close();
    }
  }, 60_000);
});
