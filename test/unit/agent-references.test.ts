import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureRef, clip, parseRef, renderRef, resolveRef, snapshotStamp, type ReferenceEnv } from '../../core/agent/references.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { Engine } from '../../core/engine/engine.js';
import { fixedClock } from '../../core/clock.js';
import { tempDir } from '../../support/fixture.js';
import { T0 } from '../helpers/agents.js';

const engines: Engine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

function setup(host: ReferenceEnv['host'] = undefined, scope: string | null = 'alice') {
  const dir = tempDir('mnemo-refs-');
  const root = join(dir, 'ws');
  mkdirSync(join(root, 'docs'), { recursive: true });
  writeFileSync(join(root, 'docs', 'plan.md'), 'ship v1 on friday');
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'secret-link'));
  const engine = Engine.open(join(dir, 'm.sqlite'), { create: true, clock: fixedClock(T0) });
  engines.push(engine);
  const env: ReferenceEnv = { store: engine.store, scope, workspaceRoot: root, host };
  return { engine, env, root };
}

describe('parseRef', () => {
  it('accepts every kind and trims the key', () => {
    expect(parseRef('var:plan')).toEqual({ kind: 'var', key: 'plan' });
    expect(parseRef('file: docs/a.md ')).toEqual({ kind: 'file', key: 'docs/a.md' });
    expect(parseRef('memory:1a2b3c4d')).toEqual({ kind: 'memory', key: '1a2b3c4d' });
  });
  it.each(['plan', 'unknown:key', 'var:', ':key', '', 'var:   '])('rejects %j with a message naming the forms', (spec) => {
    expect(() => parseRef(spec)).toThrowError(/malformed reference .*'<kind>:<key>'/);
  });
});

describe('capture and resolve', () => {
  it('file capture refuses ../ and absolute paths and symlinks out of the root', () => {
    const { env } = setup();
    expect(() => captureRef(env, 'file:../../etc/passwd', T0)).toThrowError(/escapes the workspace root/);
    expect(() => captureRef(env, 'file:/etc/passwd', T0)).toThrowError(/must be relative/);
    expect(() => captureRef(env, 'file:secret-link', T0)).toThrowError(/through a symlink/);
  });

  it('a stored escaping file reference resolves DANGLING with its preview and never reads the target', () => {
    const { env } = setup();
    for (const key of ['../secret.txt', 'secret-link']) {
      const r = resolveRef(env, { kind: 'file', key, preview: 'what the writer saw', captured_at: T0 });
      expect(r.status).toBe('DANGLING');
      expect(r.value).toBe('what the writer saw');
      expect(r.reason).toMatch(/^refused/);
    }
  });

  it('var: LIVE shows the current value; a vanished var renders the stamped snapshot', () => {
    const vars = new Map<string, unknown>([['plan', 'v1 plan']]);
    const { env } = setup({ var: (k) => vars.get(k) });
    const ref = captureRef(env, 'var:plan', T0);
    expect(ref.preview).toBe('"v1 plan"');
    vars.set('plan', { step: 2 });
    expect(renderRef(resolveRef(env, ref))).toBe('ref var:plan (LIVE) → {"step":2}');
    vars.delete('plan');
    const line = renderRef(resolveRef(env, ref));
    expect(line).toBe(`ref var:plan (DANGLING; snapshot @ ${snapshotStamp(T0)}) → "v1 plan"`);
    expect(line).toMatch(/DANGLING; snapshot @ \d{4}-\d\d-\d\d \d\d:\d\d\) → /);
  });

  it('var and context dangle without a host lookup; context resolves a block', () => {
    expect(resolveRef(setup().env, { kind: 'var', key: 'x', preview: null, captured_at: T0 })).toMatchObject({ status: 'DANGLING', value: '(no snapshot captured)' });
    const { env } = setup({ context: (k) => (k === 'goal' ? 'win the game' : undefined) });
    expect(resolveRef(env, { kind: 'context', key: 'goal', preview: null, captured_at: T0 })).toMatchObject({ status: 'LIVE', value: 'win the game' });
  });

  it('file reads fresh content at resolve time', () => {
    const { env, root } = setup();
    const ref = captureRef(env, 'file:docs/plan.md', T0);
    expect(ref.preview).toBe('ship v1 on friday');
    writeFileSync(join(root, 'docs', 'plan.md'), 'ship v2\non monday');
    expect(resolveRef(env, ref)).toMatchObject({ status: 'LIVE', value: 'ship v2 on monday' });
  });

  it('memory refs resolve visible memories only; missing, foreign and archived ones dangle', async () => {
    const { engine, env } = setup();
    const mine = await addMemory(engine, { content: 'own fact', owner: 'alice@1' });
    const shared = await addMemory(engine, { content: 'shared fact', title: 'Shared' });
    const foreign = await addMemory(engine, { content: 'bob secret', owner: 'bob' });
    const gone = await addMemory(engine, { content: 'old fact', owner: 'alice' });
    engine.store.setArchived(gone.id, true);
    const r = (key: string) => resolveRef(env, { kind: 'memory', key, preview: 'snap', captured_at: T0 });
    expect(r(mine.id.slice(0, 8))).toMatchObject({ status: 'LIVE', value: '[info] own fact' });
    expect(r(shared.id)).toMatchObject({ status: 'LIVE', value: '[info] Shared' });
    expect(r(foreign.id)).toMatchObject({ status: 'DANGLING', value: 'snap' });
    expect(r(gone.id)).toMatchObject({ status: 'DANGLING' });
    expect(r('ffffffffffff')).toMatchObject({ status: 'DANGLING' });
  });

  it('todo refs use the host lookup first, then a visible todo memory', async () => {
    const { engine, env } = setup({ todo: (k) => (k === 't1' ? { title: 'write tests', status: 'in_progress' } : undefined) });
    const todo = await addMemory(engine, { content: 'review PR', type: 'todo', owner: 'alice' });
    expect(resolveRef(env, { kind: 'todo', key: 't1', preview: null, captured_at: T0 })).toMatchObject({ status: 'LIVE', value: 'write tests [in_progress]' });
    expect(resolveRef(env, { kind: 'todo', key: todo.id, preview: null, captured_at: T0 })).toMatchObject({ status: 'LIVE', value: 'review PR [open]' });
  });

  it('values are clipped to 200 characters with " …"', () => {
    expect(clip('a'.repeat(250))).toBe(`${'a'.repeat(200)} …`);
    expect(clip('  two\nlines ')).toBe('two lines');
  });
});
