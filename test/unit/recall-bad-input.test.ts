/**
 * Bad input at every door: a query with nothing to match returns [], k outside [1, 1000], hops
 * outside [0, 4] and malformed owner scopes are clear errors, and a refused request writes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { invoke } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { MnemoError } from '../../core/errors.js';
import { explain } from '../../core/recall/explain.js';
import { recallAndLog } from '../../core/recall/record.js';
import { runCli } from '../helpers/cli.js';
import { NOW, newEngine, put } from '../helpers/recall-store.js';
import { accessEventCount } from '../../core/store/queries/access-log.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

let engine: Engine;
afterEach(() => engine?.close());

function setup(): { engine: Engine; session: ApiSession } {
  engine = newEngine();
  put(engine, { content: 'deploy billing to staging' });
  put(engine, { content: 'punctuation, everywhere!' });
  const session = new ApiSession();
  session.adopt(engine);
  return { engine, session };
}

describe('queries with nothing to match', () => {
  it.each([[''], ['   '], ['\n\t'], ['?!...'], ['— ¿ ¡ …'], ['%_%']])('%j returns []', (query) => {
    const { engine } = setup();
    expect(explain(engine, { query }).rows).toEqual([]);
    expect(recallAndLog(engine, { query }, 'recalled', { owner: '', session_ref: null }).rows).toEqual([]);
  });

  it('an empty store returns []', () => {
    engine = newEngine();
    expect(explain(engine, { query: 'deploy' }).rows).toEqual([]);
  });
});

describe('invalid k, hops and scopes', () => {
  it.each([[0], [-1], [1001], [2.5]])('k = %d is a clear error through the API', async (k) => {
    const { session } = setup();
    const res = await invoke(session, 'recall.explain', { query: 'deploy', k });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('bad_input');
      expect(res.error.message).toMatch(/k/);
    }
  });

  it.each([[0], [1001]])('k = %d is a clear error in core', (k) => {
    const { engine } = setup();
    expect(() => explain(engine, { query: 'deploy', k })).toThrow(/k must be an integer within \[1, 1000\]/);
  });

  it('hops outside [0, 4] is a clear error', () => {
    const { engine } = setup();
    expect(() => explain(engine, { query: 'deploy', hops: 5 })).toThrow(/hops must be an integer within \[0, 4\]/);
    expect(() => explain(engine, { query: 'deploy', hops: -1 })).toThrow(MnemoError);
  });

  it.each([['a%b'], ['plan_ner'], ['@inst'], ['role@'], ['role@in@st'], [''], ['has space']])('owner scope %j is a clear error', async (owner) => {
    const { engine, session } = setup();
    expect(() => explain(engine, { query: 'deploy', owner })).toThrow(/owner scope/);
    const res = await invoke(session, 'recall.run', { query: 'deploy', owner });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('a refused recall writes nothing', async () => {
    const { engine, session } = setup();
    await invoke(session, 'recall.run', { query: 'deploy' }); // creates the event table
    const before = accessEventCount(engine.store);
    const strength = allMemories(engine.store).map((m) => m.strength);
    for (const bad of [{ k: 0 }, { owner: 'a%b' }, { hops: 9 }, { k: 'ten' }]) {
      const res = await invoke(session, 'recall.run', { query: 'deploy', ...bad });
      expect(res.ok).toBe(false);
    }
    expect(accessEventCount(engine.store)).toBe(before);
    expect(allMemories(engine.store).map((m) => m.strength)).toEqual(strength);
  });

  it('why-not of an unknown memory is not_found', async () => {
    const { session } = setup();
    const res = await invoke(session, 'recall.whyNot', { query: 'deploy', target: 'ffffffffffff' });
    expect(res).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('the CLI', () => {
  it('exits 2 with a message naming the flag, and prints [] for an empty query', async () => {
    const { engine } = setup();
    const db = engine.store.path;
    engine.close();
    const k0 = await runCli(['explain', db, 'deploy', '--k', '0', '--now', String(NOW)]);
    expect(k0.code).toBe(2);
    expect(k0.stderr).toMatch(/--k must be within \[1, 1000\]/);
    const big = await runCli(['recall', db, 'deploy', '--k', '1001']);
    expect(big.code).toBe(2);
    const owner = await runCli(['search', db, 'deploy', '--owner', 'x%y']);
    expect(owner.code).toBe(2);
    expect(owner.stderr).toMatch(/owner scope/);
    expect(owner.stderr).not.toMatch(/\bat .*\.ts:\d+/); // never a stack trace
    const empty = await runCli(['explain', db, '', '--json']);
    expect(empty.code).toBe(0);
    expect(empty.json()).toEqual([]);
    const punct = await runCli(['explain', db, '?!', '--json']);
    expect(punct.json()).toEqual([]);
    const missing = await runCli(['explain', db]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing <query>/);
  });
});
