/// <reference lib="dom" />
/**
 * The workbench, part 2, end to end: browser mode (`mnemo serve`) on a copy of the fixture store
 * (with a few belief observations ingested first), driven in Debian's Chromium. Reflection review
 * against the CLI, commit and undo, History, field edits, Overview facets and brushing, the belief
 * time slider against `mnemo beliefs get --at`, and curation (merge, forget, link).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReflectionPlan } from '../../core/reflect/types.js';
import { call } from '../../core/api/service.js';
import { LlmEndpoints } from '../../core/reflect/llm-endpoints.js';
import { FITTED_CALIBRATIONS } from '../../core/beliefs/calibration-fitted.js';
import { FITTED_SIGNALS } from '../../core/beliefs/signals-fitted.js';
import { runCli } from '../helpers/cli.js';
import { planAgain } from '../helpers/reflection-page.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
const DAY = 86_400;
let wb: Workbench;
let fleetFolder: string;
let db: string;
let memoryIds: string[];
/** A stub OpenAI-compatible endpoint that answers every reconcile prompt "redundant", keeping the prompts. */
const prompts: string[] = [];
const llmStub = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const prompt = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
    prompts.push(prompt);
    const ids = [...prompt.matchAll(/id=([0-9a-f]+)/g)].map((m) => m[1]!);
    const content = `{"redundant": true, "consolidated": "One consolidated fact.", "supersede": ["${ids[1]}"]}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }], usage: { prompt_tokens: 50, completion_tokens: 20 } }));
  });
});

/** Every memory row (all columns) and edge of a store, in a stable order, for equality checks. */
function dumpStore(path: string): { memories: unknown[]; edges: unknown[] } {
  const d = new Database(path, { readonly: true });
  try {
    const memories = d.prepare('SELECT id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, hex(embedding) AS emb, data FROM memories ORDER BY id').all();
    const edges = d.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY src, dst, type').all();
    return { memories, edges };
  } finally {
    d.close();
  }
}

/** The op id, op and subject memories of every item of a plan, in plan order. */
function planItems(plan: ReflectionPlan): string[] {
  return plan.groups.flatMap((g) =>
    g.ops.map((o) => {
      const subjects = o.op === 'merge' ? [o.anchor, o.dup] : o.op === 'link' ? [o.src, o.dst] : o.op === 'rescore' || o.op === 'prune' ? [o.memory] : [];
      return `${o.id}|${o.op}|${subjects.join(',')}`;
    }),
  );
}

async function cliPlan(): Promise<{ plan: ReflectionPlan; store: string; file: string }> {
  const store = fixtureCopy();
  const file = join(tempDir('mnemo-plan-'), 'plan.json');
  const r = await runCli(['reflect', store, '--dry-run', '--json', '--out', file, '--now', String(NOW)]);
  expect(r.code).toBe(0);
  return { plan: r.json() as ReflectionPlan, store, file };
}

beforeAll(async () => {
  db = fixtureCopy();
  const ids = new Database(db, { readonly: true }).prepare('SELECT id FROM memories WHERE archived = 0 ORDER BY rowid LIMIT 3').all() as { id: string }[];
  memoryIds = ids.map((r) => r.id);
  // A few observations, one of them caused by a memory, and two names of one person (an alias proposal).
  const obs = [
    { entity: 'Ann Lee', attribute: 'city', value: 'Lyon', t: NOW - 30 * DAY, reliability: 0.9, evidence: 'Ann moved to Lyon.', memory_id: memoryIds[0] },
    { entity: 'Ann Lee', attribute: 'employer', value: 'Acme', t: NOW - 25 * DAY, reliability: 0.8, evidence: 'Ann works at Acme.' },
    { entity: 'Ann Lee', attribute: 'city', value: 'Paris', t: NOW - 10 * DAY, reliability: 0.95, evidence: 'Ann now lives in Paris.', memory_id: memoryIds[1] },
    { entity: 'Ann Lee', attribute: 'city', value: 'Paris', t: NOW - 3 * DAY, reliability: 0.7, evidence: 'Ann mentioned Paris again.' },
    ...['Kei Tanaka', 'Keiko Tanaka'].flatMap((entity, i) => [
      { entity, attribute: 'city', value: 'Osaka', t: NOW - (20 - i) * DAY, reliability: 0.9, evidence: `${entity} lives in Osaka.` },
      { entity, attribute: 'employer', value: 'Sony', t: NOW - (19 - i) * DAY, reliability: 0.9, evidence: `${entity} works at Sony.` },
      { entity, attribute: 'hobby', value: 'go', t: NOW - (18 - i) * DAY, reliability: 0.9, evidence: `${entity} plays go.` },
    ]),
  ];
  const file = join(tempDir('mnemo-obs-'), 'obs.jsonl');
  writeFileSync(file, obs.map((o) => JSON.stringify(o)).join('\n'));
  const r = await runCli(['beliefs', 'ingest', db, file]);
  expect(r.code, r.stderr).toBe(0);
  await new Promise<void>((r) => llmStub.listen(0, '127.0.0.1', r));
  // The endpoint is configured on the server side; the page can only pick it by name.
  const llmEndpoints = LlmEndpoints.of({ stub: { base_url: `http://127.0.0.1:${(llmStub.address() as { port: number }).port}/v1`, model: 'stub', api_key: null, timeout_ms: 60_000 } });
  fleetFolder = tempDir('mnemo-fleet-');
  wb = await openWorkbench(db, { now: NOW, llmEndpoints, roots: [fleetFolder] });
}, 120_000);
afterAll(async () => {
  await wb?.close();
  await new Promise<void>((r) => llmStub.close(() => r()));
});

describe('workbench part 2 e2e (Chromium, browser mode)', () => {
  it('the reflection dry run lists the same items as mnemo reflect --dry-run --json, grouped by op', async () => {
    const p = wb.page;
    const { plan } = await cliPlan();
    await wb.go('/reflection');
    await p.click('[data-testid=reflection-plan]');
    await p.waitForSelector('[data-testid=reflection-item]');
    // Every group's items, paging through "show more".
    while ((await p.locator('[data-testid=reflection-more]').count()) > 0) {
      await p.locator('[data-testid=reflection-more]').first().click();
      await p.waitForTimeout(150);
    }
    const total = plan.groups.reduce((s, g) => s + g.ops.length, 0);
    await p.waitForFunction((n) => document.querySelectorAll('[data-testid=reflection-item]').length === n, total);
    const shown = await p
      .locator('[data-testid=reflection-item]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-op-id')}|${e.getAttribute('data-op')}|${e.getAttribute('data-memories')}`));
    expect(shown).toEqual(planItems(plan));
    const groups = await p.locator('[data-testid=reflection-group]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-op'), Number(e.getAttribute('data-count'))]));
    expect(groups).toEqual(plan.groups.map((g) => [g.op, g.ops.length]));
    expect(await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-items')).toBe(String(total));
  });

  it('steps op by op, each step showing its input and output', async () => {
    const p = wb.page;
    for (const op of ['merge', 'link', 'rescore', 'prune']) {
      await p.click(`[data-testid=reflection-step-${op}]`);
      await p.waitForFunction((o) => Array.from(document.querySelectorAll('[data-testid=reflection-group]')).map((g) => g.getAttribute('data-op')).join() === o, op);
      expect(await p.textContent('[data-testid=reflection-input]')).toMatch(/input: the \d+ live memories/);
      expect(await p.locator('[data-testid=reflection-item]').first().getAttribute('data-op')).toBe(op);
    }
    await p.click('[data-testid=reflection-step-all]');
  });

  it('rejecting one merge and committing applies everything else, equal to the CLI applying the same accepted set; undo restores the rows', async () => {
    const p = wb.page;
    const before = dumpStore(db);
    // Proposals across owners start unaccepted (issue 41); the reviewer accepts every step first.
    for (const button of await p.locator('[data-testid=reflection-accept-group]').all()) if (await button.isEnabled()) await button.click();
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=reflection-item]:not([data-state=accepted])').length === 0);
    const merges = p.locator('[data-testid=reflection-item][data-op=merge]');
    const rejected = (await merges.nth(2).getAttribute('data-op-id'))!;
    await merges.nth(2).locator('[data-testid=reflection-reject]').click();
    await p.waitForSelector(`[data-testid=reflection-item][data-op-id=${rejected}][data-state=rejected]`);
    // Items that read the rejected merge's memories say they will be recomputed.
    await p.waitForFunction((id) => Array.from(document.querySelectorAll('[data-testid=reflection-note]')).some((n) => n.textContent!.includes(id)), rejected);
    // The bar's figures are the engine's count of the decisions so far, which answers after the click.
    await p.waitForSelector('[data-testid=reflection-commit-bar][data-counts-current=true]');
    const accepted = (await p.getAttribute('[data-testid=reflection-commit-bar]', 'data-accepted'))!.split(',');
    const total = Number(await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-items'));
    expect(accepted).not.toContain(rejected);
    expect(accepted.length).toBe(total - 1);

    // The commit asks first, with what it will do.
    await p.click('[data-testid=reflection-commit]');
    expect(await p.textContent('[data-testid=reflection-commit-summary]')).toMatch(/^\+[\d,]+ edges, [\d,]+ archived/);
    await p.click('[data-testid=reflection-commit-confirm-go]');
    await p.waitForSelector('[data-testid=reflection-result]');
    const changeId = Number(await p.getAttribute('[data-testid=reflection-result]', 'data-change-id'));
    expect(changeId).toBeGreaterThan(0);
    expect(Number(await p.getAttribute('[data-testid=reflection-result]', 'data-applied'))).toBe(accepted.length);

    const cli = await cliPlan();
    const applied = await runCli(['reflect', cli.store, '--apply', cli.file, '--accept', accepted.join(','), '--now', String(NOW), '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(dumpStore(db)).toEqual(dumpStore(cli.store));

    // The result is in History; undo there restores every row.
    await wb.go(`/history?change=${changeId}`);
    const row = p.locator(`[data-testid=history-row][data-change-id="${changeId}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-kind')).toBe('reflect.apply');
    await p.waitForSelector('[data-testid=change-row]');
    expect(Number(await p.getAttribute('[data-testid=change-rows]', 'data-rows'))).toBeGreaterThan(0);
    await row.locator('[data-testid=undo-button]').click();
    await p.waitForSelector(`[data-testid=history-row][data-change-id="${changeId}"][data-state=undone]`);
    expect(dumpStore(db)).toEqual(before);
    // Redo writes it again, undo once more to leave the store as it was.
    await p.locator(`[data-testid=history-row][data-change-id="${changeId}"] [data-testid=redo-button]`).click();
    await p.waitForSelector(`[data-testid=history-row][data-change-id="${changeId}"][data-state=applied]`);
    expect(dumpStore(db)).toEqual(dumpStore(cli.store));
    await p.locator(`[data-testid=history-row][data-change-id="${changeId}"] [data-testid=undo-button]`).click();
    await p.waitForSelector(`[data-testid=history-row][data-change-id="${changeId}"][data-state=undone]`);
  });

  it('a commit on a store that changed since planning is refused, with a re-plan button', async () => {
    const p = wb.page;
    await wb.go('/reflection');
    // The last test's plan stays on screen until this one is here: a change made before the new plan
    // read the store would be in it, and the commit rightly not refused.
    await planAgain(p);
    await p.waitForSelector('[data-testid=reflection-commit]:not([disabled])');
    // Planning again: the plan on screen says it is being replaced, and nothing in it can be decided
    // or committed until the new one is here (its request is held back to look at it meanwhile).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await p.route('**/api/review.plan', async (route) => {
      await gate;
      await route.continue();
    });
    const replanned = planAgain(p);
    await p.waitForSelector('[data-testid=reflection-replacing]');
    expect(await p.locator('[data-testid=reflection-commit]').isDisabled()).toBe(true);
    expect(await p.locator('[data-testid=reflection-reject]').first().isDisabled()).toBe(true);
    release();
    const planId = await replanned;
    await p.unroute('**/api/review.plan');
    expect(await p.locator('[data-testid=reflection-replacing]').count()).toBe(0);
    await p.waitForSelector('[data-testid=reflection-item][data-state=accepted]');
    await call(wb.session, 'memory.update', { id: memoryIds[2]!, patch: { title: 'changed behind the plan' } });
    await p.click('[data-testid=reflection-commit]');
    await p.click('[data-testid=reflection-commit-confirm-go]');
    await p.waitForSelector('[data-testid=reflection-stale]');
    expect(await p.textContent('[data-testid=reflection-stale]')).toMatch(/changed since/);
    await p.click('[data-testid=reflection-replan]');
    await p.waitForFunction((id) => document.querySelector('[data-testid=reflection-plan-summary]')?.getAttribute('data-plan-id') !== id, planId);
    expect(await p.locator('[data-testid=reflection-stale]').count()).toBe(0);
  });

  it('shows generative proposals from a configured endpoint with the prompt and the reply', async () => {
    const p = wb.page;
    try {
      await wb.go('/reflection');
      await p.click('[data-testid=reflection-gen-options]');
      await p.check('[data-testid=reflection-gen-reconcile]');
      await p.selectOption('[data-testid=reflection-llm-endpoint]', 'stub');
      await p.click('[data-testid=reflection-plan]');
      const item = p.locator('[data-testid=reflection-item][data-op=reconcile]').first();
      await item.waitFor();
      expect(prompts.length).toBeGreaterThan(0);
      await item.locator('[data-testid=reflection-exchange] summary').click();
      const shownPrompt = await item.locator('[data-testid=reflection-prompt]').textContent();
      expect(prompts).toContain(shownPrompt);
      expect(await item.locator('[data-testid=reflection-reply]').textContent()).toContain('One consolidated fact.');
    } finally {
      prompts.length = 0;
    }
  });

  it('lists pending and fired intents and open todos, with a dry run of the scheduler', async () => {
    const p = wb.page;
    const intents = await call(wb.session, 'intents.list', { state: 'all' });
    const todos = await call(wb.session, 'todos.list', { status: 'open' });
    await wb.go('/prospective');
    await p.waitForSelector('[data-testid=todo-row]');
    expect(Number(await p.getAttribute('[data-testid=intents-pending]', 'data-count'))).toBe(intents.counts.pending);
    expect(Number(await p.getAttribute('[data-testid=intents-fired]', 'data-count'))).toBe(intents.counts.fired);
    expect(await p.locator('[data-testid=todo-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id')))).toEqual(todos.rows.map((t) => t.id));
    const due = await call(wb.session, 'intents.due', { message: 'a staging deploy' });
    await p.fill('[data-testid=due-message]', 'a staging deploy');
    await p.click('[data-testid=due-run]');
    await p.waitForSelector('[data-testid=due-rows] li');
    expect(await p.locator('[data-testid=due-rows] li').count()).toBe(due.rows.length);
  });

  it('edits a field inline (validation at the field), and undo in History restores it; a blocked undo names the blocker', async () => {
    const p = wb.page;
    const id = memoryIds[0]!;
    const original = (await call(wb.session, 'memory.get', { id })).memory;
    await wb.go(`/memory/${id}`);
    await p.waitForSelector('[data-testid=edit-panel]');
    // A salience of 5 is refused by the engine, and the message appears at that field.
    await p.click('[data-testid=edit-salience]');
    await p.fill('[data-testid=field-input-salience]', '5');
    await p.click('[data-testid=field-save]');
    await p.waitForSelector('[data-testid=field-error-salience]');
    expect(await p.textContent('[data-testid=field-error-salience]')).toMatch(/salience/);
    expect((await call(wb.session, 'memory.get', { id })).memory.salience).toBe(original.salience);
    await p.keyboard.press('Escape');

    await p.click('[data-testid=edit-title]');
    await p.fill('[data-testid=field-input-title]', 'Edited in the workbench');
    await p.click('[data-testid=field-save]');
    await p.waitForFunction(() => document.querySelector('[data-testid=field-value-title]')?.textContent === 'Edited in the workbench');
    expect((await call(wb.session, 'memory.get', { id })).memory.title).toBe('Edited in the workbench');
    const titleChange = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;

    // A second edit of the same memory blocks undoing the first; the refusal names it.
    await p.click('[data-testid=edit-importance]');
    await p.fill('[data-testid=field-input-importance]', '9');
    await p.click('[data-testid=field-save]');
    await p.waitForFunction(() => document.querySelector('[data-testid=field-value-importance]')?.textContent === '9');
    const importanceChange = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;
    await wb.go('/history');
    await p.locator(`[data-testid=history-row][data-change-id="${titleChange.id}"] [data-testid=undo-button]`).click();
    await p.waitForSelector('[data-testid=undo-refused]');
    expect(await p.getAttribute('[data-testid=undo-refused]', 'data-blocked-by')).toBe(String(importanceChange.id));
    await p.waitForSelector(`[data-testid=undo-refused] [data-testid=dependent-change][data-change-id="${importanceChange.id}"]`);

    await p.locator(`[data-testid=history-row][data-change-id="${importanceChange.id}"] [data-testid=undo-button]`).click();
    await p.waitForSelector(`[data-testid=history-row][data-change-id="${importanceChange.id}"][data-state=undone]`);
    await p.locator(`[data-testid=history-row][data-change-id="${titleChange.id}"] [data-testid=undo-button]`).click();
    await p.waitForSelector(`[data-testid=history-row][data-change-id="${titleChange.id}"][data-state=undone]`);
    const restored = (await call(wb.session, 'memory.get', { id })).memory;
    expect(restored.title).toBe(original.title);
    expect(restored.importance).toBe(original.importance);
  });

  it('a facet click filters the Memories list to the facet count', async () => {
    const p = wb.page;
    await wb.go('/overview');
    await p.waitForSelector('[data-testid=facet-value]');
    const facets = await p.locator('[data-testid=facet-value]').evaluateAll((els) => els.map((e) => ({ facet: e.getAttribute('data-facet')!, value: e.getAttribute('data-value')!, n: Number(e.getAttribute('data-n')) })));
    for (const f of ['type', 'owner', 'status', 'archived', 'edge', 'retention', 'idle']) expect(facets.some((x) => x.facet === f)).toBe(true);
    // One value of every facet (the first with rows), clicked in the Overview.
    const picks = ['type', 'owner', 'status', 'archived', 'edge', 'retention', 'idle'].map((f) => facets.filter((x) => x.facet === f && x.n > 0).at(-1)!);
    for (const pick of picks) {
      await wb.go('/overview');
      const link = p.locator(`[data-testid=facet-value][data-facet="${pick.facet}"][data-value="${pick.value}"]`);
      await link.click();
      await p.waitForFunction(() => window.location.hash.startsWith('#/memories'));
      await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), pick.n);
    }
  });

  it('brushing a region of the retention × importance scatter lists exactly the memories in it', async () => {
    const p = wb.page;
    await wb.go('/overview');
    const chart = p.locator('[data-testid=scatter-chart]');
    await chart.waitFor();
    await p.waitForTimeout(500);
    const box = (await chart.boundingBox())!;
    // Drag across the plot: from the top left of the grid to the middle right.
    await p.mouse.move(box.x + 60, box.y + 45);
    await p.mouse.down();
    await p.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6, { steps: 8 });
    await p.mouse.up();
    await p.waitForSelector('[data-testid=scatter-region][data-total]:not([data-total=""])');
    const shown = Number(await p.getAttribute('[data-testid=scatter-region]', 'data-total'));
    const href = (await p.getAttribute('[data-testid=scatter-open]', 'href'))!;
    const q = new URLSearchParams(href.split('?')[1]);
    const range = (s: string | null) => {
      const [a, b] = (s ?? '').split('~');
      return { min: Number(a), max: Number(b) };
    };
    const api = await call(wb.session, 'memory.list', { retention: range(q.get('ret')), importance: range(q.get('imp')), limit: 1 });
    expect(shown).toBe(api.total);
    expect(shown).toBeGreaterThan(0);
    await p.click('[data-testid=scatter-open]');
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), shown);
    expect(await p.locator('[data-testid=drill-chips]').textContent()).toMatch(/retention/);
  });

  it('the belief slider shows the distribution mnemo beliefs get --at returns', async () => {
    const p = wb.page;
    await wb.go(`/beliefs?entity=${encodeURIComponent('Ann Lee')}`);
    await p.waitForSelector('[data-testid=belief-dimension][data-attribute=city]');
    const now = JSON.parse((await p.getAttribute('[data-testid=belief-dimension][data-attribute=city]', 'data-distribution'))!);
    for (const T of [NOW - 20 * DAY, NOW - 5 * DAY]) {
      await p.fill('[data-testid=belief-slider]', String(T));
      await p.waitForSelector(`[data-testid=belief-dimension][data-attribute=city][data-at="${T}"]`);
      expect(await p.evaluate(() => window.location.hash)).toContain(`at=${T}`);
      const shown = JSON.parse((await p.getAttribute('[data-testid=belief-dimension][data-attribute=city]', 'data-distribution'))!);
      const cli = await runCli(['beliefs', 'get', db, 'Ann Lee', 'city', '--at', String(T), '--json', '--now', String(NOW)]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(shown).toEqual(cli.json().belief.distribution);
      expect(shown).not.toEqual(now);
    }
    // The delta caused by a memory links to it.
    expect(await p.locator(`[data-testid=belief-delta] a[href="#/memory/${memoryIds[1]}"]`).count()).toBe(1);
    // The alias proposal is listed.
    await p.waitForSelector('[data-testid=alias-proposal]');
    expect(await p.getAttribute('[data-testid=alias-proposal]', 'data-canonical')).toMatch(/Ke(i|iko) Tanaka/);
  });

  it('the Beliefs view draws the stored calibration map and its dev figures', async () => {
    const p = wb.page;
    await wb.go(`/beliefs?entity=${encodeURIComponent('Ann Lee')}`);
    await p.click('[data-testid=belief-calibration] summary');
    await p.check('[data-testid=belief-calibration] input[name=calibration-mode] >> nth=1');
    await p.waitForSelector('[data-testid=belief-calibration][data-mode=hindsight] [data-testid=belief-reliability]');
    const stored = FITTED_CALIBRATIONS.paper!.hindsight!;
    expect(JSON.parse((await p.getAttribute('[data-testid=belief-calibration]', 'data-map'))!)).toEqual(stored.map);
    const cells = await p.locator('[data-testid=belief-calibration-figures] tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)));
    expect(cells.map((r) => r[2])).toEqual([stored.dev.model, stored.dev.calibrated, stored.dev.calibrated_cv].map((f) => String(Number(f.brier.toFixed(3)))));
    // How well the signals find the wrong answers, and the scorer's Brier once the lowest tenth is corrected.
    const signals = FITTED_SIGNALS.paper!.hindsight!.dev;
    const figure = (name: string) => p.locator(`[data-testid=belief-signals-figures] tr[data-figure="${name}"] td`).allTextContents();
    const columns = [signals.calibrated_cv, signals.signals, signals.signals_cv];
    expect(await figure('Brier after review')).toEqual(columns.map((f) => String(Number(f.brier_lowest_tenth_corrected.toFixed(3)))));
    expect(await figure('wrong in lowest tenth')).toEqual(columns.map((f) => `${f.wrong_in_lowest_tenth} of ${f.lowest_tenth}`));
  });

  it('links the selected memories to one target as one change, and one undo takes every edge back', async () => {
    const p = wb.page;
    await wb.go('/memories?type=episode');
    await p.waitForSelector('[data-testid=memory-row]');
    const rows = p.locator('[data-testid=memory-row]');
    const srcs: string[] = [];
    for (const k of [0, 1, 2]) {
      srcs.push((await rows.nth(k).getAttribute('data-memory-id'))!);
      await rows.nth(k).locator('input[type=checkbox]').check();
    }
    const target = (await rows.nth(5).getAttribute('data-memory-id'))!;
    const linked = async () => {
      const out: string[] = [];
      for (const id of srcs) if ((await call(wb.session, 'memory.get', { id })).memory.edges.some((e) => e.target_id === target && e.type === 'precedes')) out.push(id);
      return out;
    };
    const already = await linked();
    await p.click('[data-testid=bulk-link-open]');
    await p.selectOption('[data-testid=bulk-link] select', 'precedes');
    await p.fill('[data-testid=bulk-link] input', target.slice(0, 10));
    await p.locator('[data-testid=bulk-link] ul.dropdown button').first().click();
    await p.waitForSelector('[data-testid=bulk-link]', { state: 'detached' });
    const head = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;
    expect(head.label).toBe(`link 3 memories -precedes-> ${target.slice(0, 8)}`);
    expect(await linked()).toEqual(srcs);
    await wb.go('/history');
    await p.locator(`[data-testid=history-row][data-change-id="${head.id}"] [data-testid=undo-button]`).click();
    // Back to exactly the edges that existed before (the fixture may already hold one of them).
    await expect.poll(linked, { timeout: 5_000 }).toEqual(already);
    expect(already.length).toBeLessThan(srcs.length);
  });

  it('merges selected memories into a chosen survivor with lineage, and forgets one with a tombstone (both undoable)', async () => {
    const p = wb.page;
    await wb.go('/memories?type=info&sort=importance');
    await p.waitForSelector('[data-testid=memory-row]');
    const rows = p.locator('[data-testid=memory-row]');
    const a = (await rows.nth(3).getAttribute('data-memory-id'))!;
    const b = (await rows.nth(4).getAttribute('data-memory-id'))!;
    await rows.nth(3).locator('input[type=checkbox]').check();
    await rows.nth(4).locator('input[type=checkbox]').check();
    await p.click('[data-testid=bulk-merge]');
    await p.waitForSelector('[data-testid=merge-dialog]');
    // The dialog defaults to the engine's survivor (the older copy) and makes a cross-owner merge a deliberate step.
    const order = await call(wb.session, 'memory.mergeOrder', { ids: [a, b] });
    await expect.poll(() => p.locator(`[data-testid=merge-survivor][data-memory-id="${order.survivor}"]`).isChecked()).toBe(true);
    if (order.cross_owner) {
      expect(await p.locator('[data-testid=merge-confirm]').isDisabled()).toBe(true);
      await p.locator('[data-testid=merge-allow-cross-owner]').check();
    }
    await p.locator(`[data-testid=merge-survivor][data-memory-id="${b}"]`).check();
    await p.fill('[data-testid=merge-title]', 'Merged by a curator');
    await p.click('[data-testid=merge-confirm]');
    await p.waitForSelector('[data-testid=merge-dialog]', { state: 'detached' });
    const survivor = (await call(wb.session, 'memory.get', { id: b })).memory;
    expect(survivor.title).toBe('Merged by a curator');
    expect(survivor.edges.some((e) => e.target_id === a && e.type === 'refines')).toBe(true);
    expect((await call(wb.session, 'memory.get', { id: a })).memory.archived).toBe(true);
    expect((await call(wb.session, 'journal.history', { limit: 1 }))[0]!.kind).toBe('memory.merge');

    await wb.go(`/memory/${memoryIds[2]}`);
    await p.click('[data-testid=forget]');
    await p.click('[data-testid=forget-confirm]');
    await p.waitForFunction(() => window.location.hash.startsWith('#/memories'));
    const forget = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;
    expect(forget.kind).toBe('memory.forget');
    expect((await call(wb.session, 'memory.list', { ids: [memoryIds[2]!], archived: 'all' })).total).toBe(0);
    await call(wb.session, 'journal.undo', { change_id: forget.id });
    expect((await call(wb.session, 'memory.list', { ids: [memoryIds[2]!], archived: 'all' })).total).toBe(1);
  });

  it('links two memories from the detail view and by dragging on the graph, and unlinks one', async () => {
    const p = wb.page;
    const [src, dst] = memoryIds as [string, string];
    const target = (await call(wb.session, 'memory.get', { id: dst })).memory;
    await wb.go(`/memory/${src}`);
    await p.click('[data-testid=link-open]');
    await p.fill('[data-testid=link-target]', target.id.slice(0, 12));
    await p.click(`[data-testid=link-candidate][data-memory-id="${dst}"]`);
    await p.selectOption('[data-testid=link-type]', 'supports');
    await p.click('[data-testid=link-add]');
    await p.waitForSelector(`[data-testid=edge-out][data-memory-id="${dst}"]`);
    expect((await call(wb.session, 'memory.get', { id: src })).memory.edges.some((e) => e.target_id === dst && e.type === 'supports')).toBe(true);
    await p.locator(`[data-testid=edge-out][data-memory-id="${dst}"] [data-testid=unlink]`).first().click();
    await p.waitForFunction((d) => !document.querySelector(`[data-testid=edge-out][data-memory-id="${d}"]`), dst);

    // Drag on the graph: from the focus to one of its neighbours.
    await wb.go(`/graph?focus=${src}&hops=1`);
    await p.waitForSelector('[data-testid=graph-canvas][data-layout-done=true]');
    await p.check('[data-testid=graph-link-mode]');
    await p.waitForSelector('[data-testid=graph-canvas][data-node-positions]');
    const canvas = (await p.locator('[data-testid=graph-canvas]').boundingBox())!;
    const pos = JSON.parse((await p.getAttribute('[data-testid=graph-canvas]', 'data-node-positions'))!) as Record<string, [number, number]>;
    const other = Object.keys(pos).find((id) => id !== src)!;
    await p.mouse.move(canvas.x + pos[src]![0], canvas.y + pos[src]![1]);
    await p.mouse.down();
    await p.mouse.move(canvas.x + pos[other]![0], canvas.y + pos[other]![1], { steps: 10 });
    await p.mouse.up();
    await p.waitForSelector(`[data-testid=pending-link][data-src="${src}"][data-dst="${other}"]`);
    await p.selectOption('[data-testid=pending-link-type]', 'causes');
    await p.click('[data-testid=pending-link-add]');
    await p.waitForSelector('[data-testid=pending-link]', { state: 'detached' });
    expect((await call(wb.session, 'memory.get', { id: src })).memory.edges.some((e) => e.target_id === other && e.type === 'causes')).toBe(true);
  });

  it('opens a folder of stores, compares their KPIs, and opens one in full', async () => {
    const p = wb.page;
    // The server was started with this folder as a --root: browser mode opens nothing outside.
    const folder = fleetFolder;
    const { mkdirSync, copyFileSync } = await import('node:fs');
    mkdirSync(join(folder, 'run-2'));
    copyFileSync(fixtureCopy(), join(folder, 'run-1.sqlite'));
    copyFileSync(fixtureCopy('after'), join(folder, 'run-2', 'memory.sqlite'));
    writeFileSync(join(folder, 'notes.txt'), 'not a store');
    await wb.go('/fleet');
    await p.fill('[data-testid=fleet-folder]', folder);
    await p.click('[data-testid=fleet-open-folder]');
    await p.waitForSelector('[data-testid=fleet-row][data-name="run-2/memory.sqlite"][data-live]:not([data-live=""])');
    const names = await p.locator('[data-testid=fleet-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    expect(names).toEqual(['run-1.sqlite', 'run-2/memory.sqlite']);
    const live2 = Number(await p.getAttribute('[data-testid=fleet-row][data-name="run-2/memory.sqlite"]', 'data-live'));
    const after = new Database(join(folder, 'run-2', 'memory.sqlite'), { readonly: true });
    expect(live2).toBe((after.prepare('SELECT count(*) AS n FROM memories WHERE archived = 0').get() as { n: number }).n);
    after.close();
    await p.locator('[data-testid=fleet-row][data-name="run-2/memory.sqlite"] [data-testid=fleet-open]').click();
    await p.waitForFunction(() => window.location.hash.startsWith('#/overview'));
    await p.waitForFunction((n) => document.querySelector('[data-testid=store-badge]')?.textContent?.includes(`${n} live`), live2);
    expect(wb.pageErrors).toEqual([]);
  });
});
