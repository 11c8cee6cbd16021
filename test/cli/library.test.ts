/**
 * The library door: the worked agent loop of docs/agents.md, run with a scripted model, and the
 * package entry point (`import { openStore } from 'mnemo'`) resolving to the built library.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../core/index.js';
import { movableClock, T0 } from '../helpers/agents.js';
import { tempDir } from '../../support/fixture.js';

type Turn = { message: string; events: string[] };

describe('the documented agent loop', () => {
  it('runs end to end: reminders fire, injection logs without reinforcing, writes dedup, reflection reports', async () => {
    const dir = tempDir('mnemo-lib-');
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test', 'store.test.ts'), 'it("is not flaky anymore", ...)');
    const clock = movableClock();
    const turns: Turn[] = [
      { message: 'the store test failed again on CI', events: ['Error'] },
      { message: 'the store test failed again on CI', events: [] },
      { message: 'found it, root cause: two writers share one connection', events: [] },
    ];
    const prompts: string[] = [];
    const llm = async (system: string, user: string) => {
      prompts.push(system);
      return user.includes('root cause:') ? `noted. ${user.slice(user.indexOf('root cause:'))}` : 'looking';
    };
    const nextTurn = async () => {
      clock.advance(60);
      return turns.shift() ?? null;
    };

    const memory = openStore(join(dir, 'memory.sqlite'), { owner: 'coder@laptop', session: 'run-42', clock, workspaceRoot: dir, onWarning: () => {} });
    await memory.remember({ content: 'CI runs the store tests with two worker processes', tags: ['ci'] });
    await memory.intentAdd({ content: 'look at the CI logs first', trigger: { kind: 'event', cue: 'Error' } });
    let reflected: { merged: number } | undefined;
    try {
      memory.newTask('fix-flaky-test');
      let block = '';
      for (let turn = await nextTurn(); turn; turn = await nextTurn()) {
        const fired = await memory.intentsDue({ message: turn.message, events: turn.events });
        const reminders = fired.map((f) => `- reminder: ${f.intent.content} (${f.reason})`).join('\n');
        const injected = await memory.beforeTurn({ message: turn.message, task: 'fix-flaky-test' });
        if (injected.text !== null) block = injected.text;
        const prior = await memory.recall(turn.message, { k: 3 });
        const priorText = prior.map((m) => `${m.label} ${m.content}`).join('\n');
        const answer = await llm([block, reminders, priorText].filter(Boolean).join('\n\n'), turn.message);
        if (answer.includes('root cause:')) {
          const { id } = await memory.remember({
            content: answer.slice(answer.indexOf('root cause:')),
            type: 'episode',
            importance: 'HIGH',
            tags: ['flaky-test'],
            references: ['file:test/store.test.ts'],
          });
          await memory.intentAdd({
            content: 'check that the flaky test stayed green',
            trigger: { kind: 'time', fire_at: clock.now() + 24 * 3600 },
            opens_todo: true,
            references: [`memory:${id.slice(0, 8)}`],
          });
        }
      }
      const { report } = await memory.reflect();
      reflected = report;

      expect(prompts[0]).toContain('- reminder: look at the CI logs first (event "Error" was seen)');
      expect(prompts[0]).toContain('## Recalled memories (associative)');
      expect(prompts[1]).not.toContain('reminder');
      expect(prompts[1]).toContain('## Recalled memories (associative)'); // self_gated: the same message keeps the last block
      const episode = (await memory.search('root cause two writers', { k: 1 }))[0]!;
      expect(episode.references).toMatchObject([{ spec: 'file:test/store.test.ts', status: 'LIVE' }]);
      expect(memory.intents('pending')).toMatchObject([{ content: 'check that the flaky test stayed green', opens_todo: true }]);
      clock.set(T0 + 2 * 24 * 3600);
      const later = await memory.intentsDue();
      expect(later[0]!.todo).toMatchObject({ type: 'todo', status: 'open' });
      expect(memory.stats()).toMatchObject({ injections: 2, reflections: 1, writes: 4 });
    } finally {
      memory.close();
    }
    expect(reflected).not.toBeNull();
  });
});

describe("the package entry point 'mnemo'", () => {
  it('resolves to the built library and opens a store', () => {
    const root = process.cwd();
    if (!existsSync(join(root, 'dist', 'core', 'index.js'))) {
      execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.node.json'], { cwd: root, stdio: 'pipe' });
    }
    const db = join(tempDir('mnemo-pkg-'), 'm.sqlite');
    const script = `
      import { openStore } from 'mnemo';
      const m = openStore(${JSON.stringify(db)}, { owner: 'pkg@1' });
      const r = await m.remember({ content: 'imported through the package name' });
      console.log(JSON.stringify({ id: r.id, type: typeof openStore, methods: ['recall', 'intentsDue', 'beforeTurn'].every((k) => typeof m[k] === 'function') }));
      m.close();`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const got = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(got).toMatchObject({ type: 'function', methods: true });
    expect(got.id).toMatch(/^[0-9a-f]{32}$/);
  });
});
