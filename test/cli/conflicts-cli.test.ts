/**
 * `mnemo conflicts` end to end: the queue (text and --json), a supersede resolution that takes the
 * superseded memory out of default recall, --include-superseded that brings it back marked, explain
 * --target naming the resolution, and undo restoring the ranking.
 */
import { describe, expect, it } from 'vitest';
import { freshStorePath } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';

const NOW = '1780000000';

async function store(): Promise<{ db: string; ids: Record<string, string> }> {
  const db = freshStorePath();
  const ids: Record<string, string> = {};
  expect((await runCli(['init', db])).code).toBe(0);
  const texts = {
    dana: 'The billing service is owned by Dana.',
    lior: 'The billing service is owned by Lior.',
    names: 'Ask Dana or Lior about billing.',
    host: 'Payments write to the primary at db-3.internal.',
    host2: 'Payments write to the primary at db-7.internal.',
  };
  for (const [k, content] of Object.entries(texts)) {
    const r = await runCli(['add', db, content, '--now', NOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    ids[k] = r.json().id;
  }
  return { db, ids };
}

describe('mnemo conflicts', () => {
  it('lists the queue with both sides, what differs and what recall returns today; --json items carry kind and ids', async () => {
    const { db, ids } = await store();
    const text = await runCli(['conflicts', db, '--now', NOW]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^2 in the queue \(0 contradicts, 2 value, 0 belief\)/);
    expect(text.stdout).toContain('differs in: Dana / Lior (name)');
    expect(text.stdout).toContain(ids.dana!.slice(0, 8));
    expect(text.stdout).toMatch(/recall today for ".*": /);
    const json = await runCli(['conflicts', db, '--limit', '1', '--json', '--now', NOW]);
    const page = json.json();
    expect(page.total).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].kind).toBe('value');
    expect(page.items[0].ids).toHaveLength(2);
    expect(page.items[0].recall.places).toHaveLength(2);
    const bad = await runCli(['conflicts', db, '--kind', 'rumours', '--now', NOW]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kind must be one of contradicts, value, belief');
  });

  it('resolve --current B --superseded A takes A out of default recall; --include-superseded brings it back marked; explain --target names it; undo restores the ranking', async () => {
    const { db, ids } = await store();
    const q = ['who owns billing', '--k', '5', '--now', NOW];
    const before = (await runCli(['explain', db, ...q, '--json'])).json();
    expect(before.map((r: { id: string }) => r.id)).toContain(ids.dana);

    const res = await runCli(['conflicts', 'resolve', db, '--current', ids.lior!, '--superseded', ids.dana!, '--now', NOW, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const change = res.json().change_id as number;
    expect(change).toBeGreaterThan(0);

    const after = await runCli(['explain', db, ...q]);
    expect(after.stdout).not.toContain(ids.dana!.slice(0, 8));
    expect(after.stdout).toContain('1 superseded memory left out (--include-superseded ranks them, marked)');
    const included = (await runCli(['explain', db, ...q, '--include-superseded', '--json'])).json();
    expect(included.find((r: { id: string }) => r.id === ids.dana).superseded_by).toBe(ids.lior);

    const why = await runCli(['explain', db, ...q, '--target', ids.dana!]);
    expect(why.stdout).toContain(`${ids.dana}: superseded`);
    expect(why.stdout).toMatch(new RegExp(`superseded by ${ids.lior!.slice(0, 8)} ".*" at 2026-05-28T\\d\\d:\\d\\d:\\d\\dZ \\(change #${change}\\)`));

    const queue = (await runCli(['conflicts', db, '--json', '--now', NOW])).json();
    expect(queue.items.some((i: { ids: string[] }) => i.ids.includes(ids.dana!))).toBe(false);

    const undo = await runCli(['undo', db, String(change), '--now', NOW]);
    expect(undo.code, undo.stderr).toBe(0);
    const restored = (await runCli(['explain', db, ...q, '--json'])).json();
    expect(restored.map((r: { id: string; score: number }) => [r.id, r.score])).toEqual(before.map((r: { id: string; score: number }) => [r.id, r.score]));
  });

  it('resolve --both-hold and flag write one change each; a resolution that names nothing is refused', async () => {
    const { db, ids } = await store();
    const held = await runCli(['conflicts', 'resolve', db, '--both-hold', ids.host!, ids.host2!, '--now', NOW]);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toMatch(/both hold; the pair leaves the queue \(change #\d+/);
    const flagged = await runCli(['conflicts', 'flag', db, ids.names!, ids.host!, '--note', 'unrelated, for the test', '--now', NOW, '--json']);
    expect(flagged.json()).toMatchObject({ src: ids.names, dst: ids.host, changed: true });
    const queue = (await runCli(['conflicts', db, '--json', '--no-recall', '--now', NOW])).json();
    expect(queue.by_kind).toEqual({ contradicts: 1, value: 1, belief: 0 });
    expect(queue.items.find((i: { kind: string }) => i.kind === 'contradicts').note.note).toBe('unrelated, for the test');
    // A logged recall marks what it returns that was superseded.
    await runCli(['conflicts', 'resolve', db, '--current', ids.lior!, '--superseded', ids.dana!, '--now', NOW]);
    const recalled = await runCli(['recall', db, 'who owns billing', '--k', '5', '--include-superseded', '--now', NOW]);
    expect(recalled.stdout).toContain(`[superseded by ${ids.lior!.slice(0, 8)}]`);
    const none = await runCli(['conflicts', 'resolve', db, '--now', NOW]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('say how to resolve it');
  });
});
