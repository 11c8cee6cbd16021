/// <reference lib="dom" />
/**
 * Time travel in Chromium (issue #16, part 4): on a store an agent in another process is writing,
 * the Memories list stays live while the time control shows the store as of an earlier instant
 * (a memory added later absent, a memory rewritten later with its old text, editing off, live
 * refresh not replacing it); a logged recall replayed as of then reproduces its ranking while the
 * replay against now does not; and the diff view lists what changed in between with its writers.
 *
 * The workbench runs on the wall clock here (no frozen `now`): the change feed stamps each change
 * with its writer's clock, and the agent process writes on the wall clock too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { fmtInstant, toInputValue } from '../../renderer/state/instant.js';
import { axeFindings } from '../helpers/axe.js';
import { fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NEW_CONTENT = 'Rewritten later by the busy agent: the staging cluster moved to the new region';
const HEX_ID = /\b[0-9a-f]{32}\b/;

let wb: Workbench;
let db: string;
let agent: { child: ChildProcess; first: Promise<{ added: string }>; notes: string[] } | null = null;

/** The instant T between what was there and what the agent writes: a whole second, already past. */
async function pastWholeSecond(): Promise<number> {
  const t = Math.ceil(Date.now() / 1000);
  await new Promise((r) => setTimeout(r, Math.max(0, t * 1000 + 150 - Date.now())));
  return t;
}

function startAgent(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'scripts', 'busy-writer.ts'), db, ...args, '300'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const notes: string[] = [];
  const first = new Promise<{ added: string }>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the busy agent exited (${code}) before its first changes`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { added?: string; note?: string };
      if (msg.added) resolve({ added: msg.added });
      if (msg.note) notes.push(msg.note);
    });
  });
  return { child, first, notes };
}

function stopAgent(): Promise<void> {
  const a = agent;
  agent = null;
  if (!a || a.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    a.child.once('exit', () => resolve());
    a.child.kill('SIGTERM');
  });
}

const total = async () => Number(await wb.page.getAttribute('[data-testid=memory-table]', 'data-total'));
const seriousFindings = async () => (await axeFindings(wb.page, 'serious')).map((f) => `${f.impact} ${f.id}: ${f.help} @ ${f.targets.join(' | ')}`);

// Filled in by the first test, read by the next two (they tell one story in order).
let T = 0;
let target: { id: string; content: string };
let link: { src: string; dst: string };
let added = '';
let archived: { id: string; change: number };

beforeAll(async () => {
  db = fixtureCopy();
  wb = await openWorkbench(db, { width: 1280, height: 800 });
  const rows = (await call(wb.session, 'memory.list', { limit: 40, types: ['info'] })).rows;
  const t = (await call(wb.session, 'memory.get', { id: rows[0]!.id })).memory;
  target = { id: t.id, content: t.content };
  // Two memories with no `supports` edge between them, for the foreign writer to link.
  for (const r of rows.slice(1)) {
    const out = (await call(wb.session, 'memory.get', { id: r.id })).outgoing;
    const dst = rows.find((x) => x.id !== r.id && x.id !== t.id && !out.some((e) => e.type === 'supports' && e.id === x.id));
    if (dst) {
      link = { src: r.id, dst: dst.id };
      break;
    }
  }
}, 120_000);
afterAll(async () => {
  await stopAgent();
  await wb?.close();
});

describe('time travel in the workbench (Chromium)', () => {
  it('keeps Memories live while an agent writes, and shows the earlier state as of an instant', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    const before = await total();
    const topBefore = await p.getAttribute('[data-testid=memory-row]', 'data-memory-id');
    // The store's history starts when Mnemo first opens it to write (the change feed's installation):
    // one write through the workbench before T, so T is inside it.
    await call(wb.session, 'memory.tag', { ids: [link.dst], add: ['seen-before'] });
    T = await pastWholeSecond();
    agent = startAgent([target.id, NEW_CONTENT, link.src, link.dst]);
    added = (await agent.first).added;

    // Live: the agent's memory and the notes after it arrive without a reload.
    await p.waitForFunction((n) => Number(document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total')) >= n, before + 3, { timeout: 30_000 });
    await expect.poll(() => p.getAttribute('[data-testid=memory-row]', 'data-memory-id')).not.toBe(topBefore);

    // The time control: type the instant, show it.
    await p.fill('[data-testid=time-input]', toInputValue(T));
    await p.click('[data-testid=time-show]');
    await p.waitForSelector('[data-testid=time-banner]');
    expect(await p.textContent('[data-testid=time-banner-instant]')).toBe(`As of ${fmtInstant(T)}`);
    expect(await p.textContent('[data-testid=time-banner]')).toContain('read-only');
    expect(p.url()).toContain(`at=${T}`);
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), before);
    await expect.poll(() => p.getAttribute('[data-testid=memory-row]', 'data-memory-id')).toBe(topBefore);
    expect(await p.locator(`[data-testid=memory-row][data-memory-id="${added}"]`).count()).toBe(0);

    // The agent keeps writing and live refresh keeps firing; the view of T does not move.
    const notes = agent.notes.length;
    await expect.poll(() => agent!.notes.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(notes + 3);
    await expect.poll(async () => (await call(wb.session, 'memory.list', { limit: 1 })).total, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + notes + 4);
    expect(await total()).toBe(before);
    expect(await p.getAttribute('[data-testid=memory-row]', 'data-memory-id')).toBe(topBefore);
    // Editing is off, with the reason.
    expect(await p.textContent('[data-testid=read-only-note]')).toContain('read-only');
    // The banner and the control pass axe in both themes.
    expect(await seriousFindings()).toEqual([]);
    await p.evaluate(() => (document.documentElement.dataset['theme'] = 'dark'));
    expect(await seriousFindings()).toEqual([]);
    await p.evaluate(() => (document.documentElement.dataset['theme'] = 'light'));

    // A memory the agent rewrote after T shows its old text, as of T; its edit buttons are off.
    await p.click('[data-testid=back-to-live]');
    await p.waitForFunction(() => !window.location.hash.includes('at='));
    await wb.go(`/memory/${target.id}?at=${T}`);
    await p.waitForSelector('[data-testid=memory-content]');
    expect(await p.textContent('[data-testid=memory-content]')).toBe(target.content);
    expect(await p.locator('[data-testid=archive-toggle]').isDisabled()).toBe(true);
    expect(await p.getAttribute('[data-testid=archive-toggle]', 'title')).toContain('read-only');
    // Back to live: the text the agent wrote.
    await p.click('[data-testid=back-to-live]');
    await expect.poll(() => p.textContent('[data-testid=memory-content]')).toBe(NEW_CONTENT);
    expect(await p.locator('[data-testid=archive-toggle]').isDisabled()).toBe(false);
    await stopAgent();

    // The instant follows the top bar to Graph (the graph as of T, no dragging links) and Recall (Explain ranks the store as of T; a logged recall waits for live).
    await wb.go(`/memories?at=${T}`);
    await p.click('[data-testid=nav-graph]');
    await p.waitForFunction((t) => window.location.hash.startsWith('#/graph') && window.location.hash.includes(`at=${t}`), T);
    await p.waitForSelector('[data-testid=graph-canvas][data-layout-done=true]');
    expect(Number(await p.getAttribute('[data-testid=graph-canvas]', 'data-node-count'))).toBe(before);
    expect(await p.locator('[data-testid=graph-link-mode]').isDisabled()).toBe(true);
    await wb.go(`/recall?q=deploy&at=${T}`);
    await p.waitForSelector('[data-testid=recall-past-note]');
    expect(await p.locator('[data-testid=mode-recall]').isDisabled()).toBe(true);
    // Explain ranks the store as of T: the rows are the API's recall.explain at T, in order.
    const then = await call(wb.session, 'recall.explain', { query: 'deploy', k: 10, hops: 1, at: T });
    expect(then.rows.length).toBeGreaterThan(0);
    await expect.poll(() => p.locator('[data-testid=recall-result]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-memory-id')))).toEqual(then.rows.map((r) => r.id));
    expect(await p.getAttribute('[data-testid=recall-past-audit]', 'href')).toBe('#/audit?q=deploy');
    expect(wb.pageErrors).toEqual([]);
  });

  it('explains an instant before the history starts, naming the earliest one, and offers it', async () => {
    const p = wb.page;
    await wb.go('/memories?at=1000000000');
    const error = p.locator('[data-testid=instant-error]');
    await error.waitFor();
    const earliest = Number(await error.getAttribute('data-earliest'));
    expect(earliest).toBeGreaterThan(1_000_000_000);
    expect(earliest).toBeLessThanOrEqual(T);
    const text = (await error.textContent())!;
    expect(text).toContain(`Its history starts at ${fmtInstant(earliest)}`);
    expect(text).not.toMatch(/bad_input|before_history|epoch/);
    await p.click('[data-testid=instant-earliest]');
    await p.waitForFunction((e) => window.location.hash.includes(`at=${e}`), earliest);
    await error.waitFor({ state: 'detached' });
    await p.waitForSelector('[data-testid=memory-row]');
  });

  it('replays a recall logged before a later change: as of then it reproduces the logged ranking, against now it does not', async () => {
    const p = wb.page;
    const query = 'deploy';
    const logged = await call(wb.session, 'recall.run', { query, k: 5 });
    const top = logged.rows[0]!.id;
    await pastWholeSecond();
    // The later change: the top result is archived, so a recall now cannot rank it.
    archived = { id: top, change: (await call(wb.session, 'memory.archive', { ids: [top] })).change_id! };

    await wb.go(`/audit?q=${query}`);
    const row = p.locator(`[data-testid=access-row][data-memory-id="${top}"]`).first();
    await row.waitFor();
    // The row's first cell: the middle of the row is the memory's link.
    await row.locator('td').first().click();
    await p.waitForSelector('[data-testid=replay-now-verdict]');
    expect(await p.getAttribute('[data-testid=replay-now-verdict]', 'data-reproduces')).toBe('false');
    await p.click('[data-testid=replay-then]');
    await p.waitForSelector('[data-testid=replay-then-verdict]', { timeout: 60_000 });
    expect(await p.getAttribute('[data-testid=replay-then-verdict]', 'data-reproduces')).toBe('true');
    expect(await p.textContent('[data-testid=replay-then-verdict]')).toContain('reproduces the logged ranking');
    expect(await seriousFindings()).toEqual([]);
  });

  it('lists what changed between two instants, each change with its writer and counts per kind', async () => {
    const p = wb.page;
    const to = Math.ceil(Date.now() / 1000);
    const api = await call(wb.session, 'store.diff', { from: T, to });
    await wb.go(`/history/diff?from=${T}&to=${to}`);
    await p.waitForSelector('[data-testid=diff-memories]');

    // Added by the agent, a second Mnemo process: its journalled change, named.
    const addedBy = p.locator(`[data-testid=diff-memory][data-kind=added][data-memory-id="${added}"] [data-testid=diff-author]`).first();
    await addedBy.waitFor();
    expect(await addedBy.getAttribute('data-author-kind')).toBe('journal');
    expect(await addedBy.locator('a').getAttribute('href')).toMatch(/^#\/history\?change=\d+$/);
    // Archived through the workbench: its journalled change, linking to History (the recall's access before it: Mnemo outside the journal).
    const archivedRow = p.locator(`[data-testid=diff-memory][data-kind=archived][data-memory-id="${archived.id}"]`);
    expect(await archivedRow.locator('[data-testid=diff-author]').evaluateAll((els) => els.map((e) => e.getAttribute('data-author-kind')))).toEqual(['mnemo', 'journal']);
    const archivedBy = archivedRow.locator('[data-testid=diff-author][data-author-kind=journal]');
    expect(await archivedBy.getAttribute('data-change-id')).toBe(String(archived.change));
    expect(await archivedBy.locator('a').getAttribute('href')).toBe(`#/history?change=${archived.change}`);
    expect(await archivedBy.textContent()).toMatch(new RegExp(`^change #${archived.change} `));

    // Rewritten: which field, and the text change as a word diff.
    const changed = p.locator(`[data-testid=diff-memory][data-kind=changed][data-memory-id="${target.id}"]`);
    expect(await changed.locator('td').nth(2).textContent()).toContain('content');
    await changed.locator('[data-testid=diff-show-text]').click();
    const textDiff = p.locator('[data-testid=diff-text-content]');
    await textDiff.waitFor();
    expect(await textDiff.locator('ins').allTextContents()).not.toEqual([]);
    expect(await textDiff.locator('del').allTextContents()).not.toEqual([]);

    expect(await p.locator('[data-testid=diff-memory][data-kind=archived]').count()).toBe(api.counts.memories.archived);

    // Linked by a program that is not Mnemo: a foreign writer.
    const edge = p.locator(`[data-testid=diff-edge][data-kind=linked][data-src="${link.src}"][data-dst="${link.dst}"]`);
    await edge.waitFor();
    expect(await edge.locator('[data-testid=diff-author]').getAttribute('data-author-kind')).toBe('foreign');
    expect(await edge.locator('[data-testid=diff-author]').textContent()).toBe('foreign writer');

    // Counts per kind, as the engine counted them, with the nouns agreeing.
    expect(Number(await p.getAttribute('[data-testid=diff-count-added]', 'data-count'))).toBe(api.counts.memories.added);
    expect(await p.textContent('[data-testid=diff-count-unlinked]')).toBe(`${api.counts.edges.unlinked} edges unlinked`);
    const changedCount = api.counts.memories.changed;
    expect(await p.textContent('[data-testid=diff-count-changed]')).toBe(`${changedCount} ${changedCount === 1 ? 'memory' : 'memories'} changed`);
    // Memories named by title, never by id.
    expect(await p.textContent('[data-testid=diff-view]')).not.toMatch(HEX_ID);
    expect(await seriousFindings()).toEqual([]);

    // A kind chip lists only that kind.
    await p.click('[data-testid=diff-count-changed]');
    await p.waitForFunction(() => window.location.hash.includes('kind=changed'));
    await expect.poll(() => p.locator('[data-testid=diff-memory]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-kind')))])).toEqual(['changed']);
    expect(wb.pageErrors).toEqual([]);
  });
});
