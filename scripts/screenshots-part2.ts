/// <reference lib="dom" />
/**
 * The screenshots of the workbench's second part (Overview, Reflection, History, curation,
 * Beliefs, Fleet, Intents), called by scripts/screenshots.ts with its `shot` helper. Everything is
 * set up through the engine first (observations, a committed plan, a folder of stores), so the
 * pictures show populated screens.
 */
import { copyFileSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { expected, FIXTURE_AFTER, FIXTURE_STORE, tempDir } from '../support/fixture.js';
import type { Workbench } from '../support/workbench.js';
import { agentsUse } from './screenshots-credentials.js';

type Shot = (wb: Workbench, name: string, hash: string, ready: string, opts?: { tall?: number; after?: (wb: Workbench) => Promise<void> }) => Promise<void>;

const NOW = expected().now as number;
const DAY = 86_400;

/** Observations about three people, two of them one person under two names (an alias proposal). */
export async function ingestBeliefs(wb: Workbench): Promise<void> {
  const ids = (await call(wb.session, 'memory.list', { limit: 3, types: ['info'] })).rows.map((r) => r.id);
  const o = (entity: string, attribute: string, value: string, daysAgo: number, reliability: number, memory_id?: string) => ({
    entity,
    attribute,
    value,
    t: NOW - daysAgo * DAY,
    reliability,
    evidence: `${entity.split(' ')[0]}'s ${attribute} is ${value}.`,
    ...(memory_id ? { memory_id } : {}),
  });
  const observations = [
    o('Ann Lee', 'city', 'Lyon', 60, 0.9, ids[0]),
    o('Ann Lee', 'employer', 'Acme', 55, 0.8),
    o('Ann Lee', 'hobby', 'sailing', 50, 0.7),
    o('Ann Lee', 'city', 'Lyon', 40, 0.85),
    o('Ann Lee', 'employer', 'Globex', 30, 0.9, ids[1]),
    o('Ann Lee', 'city', 'Paris', 20, 0.95, ids[2]),
    o('Ann Lee', 'hobby', 'climbing', 15, 0.6),
    o('Ann Lee', 'city', 'Paris', 8, 0.8),
    o('Ann Lee', 'employer', 'Globex', 5, 0.7),
    o('Ben Park', 'city', 'Seoul', 45, 0.9),
    o('Ben Park', 'employer', 'Initech', 35, 0.8),
    ...['Kei Tanaka', 'Keiko Tanaka'].flatMap((n, i) => [o(n, 'city', 'Osaka', 40 - i * 3, 0.9), o(n, 'employer', 'Sony', 35 - i * 3, 0.9), o(n, 'hobby', 'go', 30 - i * 3, 0.9)]),
  ];
  await call(wb.session, 'beliefs.ingest', { observations });
}

/**
 * The folder the fleet shots open. Browser mode opens folders only inside what it was started with,
 * so the screenshot run passes this folder as a root when it starts the workbench.
 */
export const FLEET_ROOT = tempDir('mnemo-shots-fleet-');

/** A folder with three runs, shown under a neutral name (the real one is a temporary directory); agents with their own credentials worked on the first. */
async function openFleet(wb: Workbench): Promise<void> {
  const dir = join(FLEET_ROOT, 'agent-runs');
  mkdirSync(join(dir, 'run-02'), { recursive: true });
  copyFileSync(FIXTURE_STORE, join(dir, 'run-01.sqlite'));
  await agentsUse(join(dir, 'run-01.sqlite'));
  copyFileSync(FIXTURE_AFTER, join(dir, 'run-02', 'memory.sqlite'));
  copyFileSync(FIXTURE_AFTER, join(dir, 'run-03.sqlite'));
  // Dated at the frozen clock, so the picture is the same on every run.
  for (const f of ['run-01.sqlite', 'run-02/memory.sqlite', 'run-03.sqlite']) utimesSync(join(dir, f), NOW - 3600, NOW - 3600);
  await call(wb.session, 'fleet.open', { folder: dir });
}

async function maskFolder(wb: Workbench): Promise<void> {
  await wb.page.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('.fleet-form .muted'))) el.textContent = (el.textContent ?? '').replace(/^\S*agent-runs/, '~/agent-runs');
  });
}

async function planAndReview(wb: Workbench): Promise<void> {
  const p = wb.page;
  await p.click('[data-testid=reflection-plan]');
  await p.waitForSelector('[data-testid=reflection-item][data-op=merge]');
  await p.locator('[data-testid=reflection-item][data-op=merge] [data-testid=reflection-reject]').nth(1).click();
  await p.waitForSelector('[data-testid=reflection-item][data-state=rejected]');
}

/** Find duplicates with a pair across owners, the merge dialog's cross-owner confirmation, and the undo toast after an archive. */
async function curationShots(wb: Workbench, shot: Shot): Promise<void> {
  await call(wb.session, 'memory.add', { content: 'Rotate the staging deploy key every month.', owner: 'Planner@a1', created_at: NOW - 9000 });
  await call(wb.session, 'memory.add', { content: 'rotate the staging deploy key, every month', owner: 'Coder@c3', created_at: NOW - 100 });
  const group = '[data-testid=dup-group]:has-text("Rotate the staging deploy key")';
  await shot(wb, 'duplicates', '/duplicates', group);
  await shot(wb, 'merge-dialog-cross-owner', '/duplicates', group, {
    after: async (w) => {
      await w.page.locator(group).locator('[data-testid=dup-merge]').click();
      await w.page.waitForSelector('[data-testid=merge-cross-owner]');
    },
  });
  await wb.page.keyboard.press('Escape');
  const id = (await call(wb.session, 'memory.list', { limit: 1, types: ['skill'] })).rows[0]!.id;
  await shot(wb, 'undo-toast', `/memory/${id}`, '[data-testid=archive-toggle]', {
    after: async (w) => {
      await w.page.click('[data-testid=archive-toggle]');
      await w.page.waitForSelector('[data-testid=undo-toast]');
    },
  });
  // Put it back so the later shots see the store as before.
  await wb.page.click('[data-testid=undo-toast-undo]');
  await wb.page.waitForSelector('[data-testid=undo-toast]', { state: 'detached' });
}

/** Fleet: three runs side by side, the first with the agent credentials that worked on it. */
export async function fleetShot(wb: Workbench, shot: Shot): Promise<void> {
  await openFleet(wb);
  // Taller: the view opens with the agents of the open store above the fleet folder's stores.
  await shot(wb, 'fleet', '/fleet', '[data-testid=fleet-row][data-live]:not([data-live=""])', {
    tall: 950,
    after: async (w) => {
      await w.page.waitForSelector('[data-testid=owner-row]');
      await w.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=fleet-row]')).every((r) => r.getAttribute('data-live') !== ''));
      await maskFolder(w);
    },
  });
}

export async function part2(wb: Workbench, theme: 'light' | 'dark', shot: Shot): Promise<void> {
  const p = wb.page;
  if (theme === 'dark') {
    await shot(wb, 'overview-dark', '/overview', '[data-testid=facet-value]');
    await shot(wb, 'reflection-dark', '/reflection', '[data-testid=reflection-plan]', { after: planAndReview });
    return;
  }
  await ingestBeliefs(wb);
  await shot(wb, 'overview', '/overview', '[data-testid=facet-value]', {
    tall: 1150,
    after: async (w) => {
      // Brush a region of the scatter: the memories in it are listed under the chart.
      const box = (await w.page.locator('[data-testid=scatter-chart]').boundingBox())!;
      await w.page.mouse.move(box.x + 60, box.y + 50);
      await w.page.mouse.down();
      await w.page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.55, { steps: 6 });
      await w.page.mouse.up();
      await w.page.waitForSelector('[data-testid=scatter-region] li');
    },
  });
  await shot(wb, 'memories-drilldown', '/memories?ret=~0.02&edge=supports', '[data-testid=memory-row]');
  await shot(wb, 'reflection', '/reflection', '[data-testid=reflection-plan]', { tall: 1300, after: planAndReview });
  await shot(wb, 'reflection-step-link', '/reflection?step=link', '[data-testid=reflection-item][data-op=link]');
  await shot(wb, 'reflection-step-prune', '/reflection?step=prune', '[data-testid=reflection-item][data-op=prune]');
  // Commit the reviewed plan, then edit a memory twice: History then has a reflection, two edits and a refused undo.
  await wb.go('/reflection');
  await p.click('[data-testid=reflection-commit]');
  await p.click('[data-testid=reflection-commit-confirm-go]');
  await p.waitForSelector('[data-testid=reflection-result]');
  await shot(wb, 'reflection-committed', '/reflection', '[data-testid=reflection-result]');
  const id = (await call(wb.session, 'memory.list', { limit: 1, types: ['skill'] })).rows[0]!.id;
  await call(wb.session, 'memory.update', { id, patch: { title: 'Deploy the notifier to staging', tags: ['deploy', 'staging', 'runbook'] } });
  await call(wb.session, 'memory.update', { id, patch: { importance: 9 } });
  const changes = await call(wb.session, 'journal.history', { limit: 3 });
  await shot(wb, 'history', `/history?change=${changes[1]!.id}`, '[data-testid=change-row]', {
    tall: 1100,
    after: async (w) => {
      // The refused undo lists the later edit that depends on it; the confirmation shows what "undo both" would undo.
      await w.page.locator(`[data-testid=history-row][data-change-id="${changes[1]!.id}"] [data-testid=undo-button]`).click();
      await w.page.waitForSelector('[data-testid=undo-refused] [data-testid=dependents-offer]');
      await w.page.click('[data-testid=undo-with-dependents]');
      await w.page.waitForSelector('[data-testid=undo-with-dependents-confirm]');
    },
  });
  await shot(wb, 'memory-edit', `/memory/${id}`, '[data-testid=edit-panel]', {
    tall: 2300,
    after: async (w) => {
      await w.page.click('[data-testid=link-open]');
      await w.page.fill('[data-testid=link-target]', 'staging');
      await w.page.waitForSelector('[data-testid=link-candidate]');
      await w.page.click('[data-testid=edit-salience]');
      await w.page.fill('[data-testid=field-input-salience]', '3');
      await w.page.click('[data-testid=field-save]');
      await w.page.waitForSelector('[data-testid=field-error-salience]');
    },
  });
  await shot(wb, 'merge-dialog', '/memories?type=skill&sort=importance', '[data-testid=memory-row]', {
    after: async (w) => {
      const rows = w.page.locator('[data-testid=memory-row] input[type=checkbox]');
      await rows.nth(1).check();
      await rows.nth(2).check();
      await w.page.click('[data-testid=bulk-merge]');
      await w.page.waitForSelector('[data-testid=merge-survivor]');
      await w.page.fill('[data-testid=merge-title]', 'Staging deploys: run make deploy, wait for health, announce');
    },
  });
  await wb.go('/memories');
  await p.keyboard.press('Escape');
  await curationShots(wb, shot);
  const S = expected().summary;
  await shot(wb, 'graph-link', `/graph?focus=${S.chain.a}&hops=1`, '[data-testid=graph-canvas][data-layout-done=true]', {
    after: async (w) => {
      await w.page.check('[data-testid=graph-link-mode]');
      await w.page.waitForSelector('[data-testid=graph-canvas][data-node-positions]');
      const box = (await w.page.locator('[data-testid=graph-canvas]').boundingBox())!;
      const pos = JSON.parse((await w.page.getAttribute('[data-testid=graph-canvas]', 'data-node-positions'))!) as Record<string, [number, number]>;
      const src = S.chain.a as string;
      const dst = Object.keys(pos).find((k) => k !== src)!;
      await w.page.mouse.move(box.x + pos[src]![0], box.y + pos[src]![1]);
      await w.page.mouse.down();
      await w.page.mouse.move(box.x + pos[dst]![0], box.y + pos[dst]![1], { steps: 8 });
      await w.page.mouse.up();
      await w.page.waitForSelector('[data-testid=pending-link]');
    },
  });
  await beliefShots(wb, shot);
  await fleetShot(wb, shot);
  await shot(wb, 'prospective', '/prospective', '[data-testid=todo-row]', {
    after: async (w) => {
      await w.page.fill('[data-testid=due-message]', 'is the staging deploy safe?');
      await w.page.click('[data-testid=due-run]');
      await w.page.waitForSelector('[data-testid=due-rows] li');
    },
  });
}

/** The Beliefs view, and its calibration panel opened (`npm run screenshots -- --only beliefs` after ingestBeliefs). */
export async function beliefShots(wb: Workbench, shot: Shot): Promise<void> {
  await shot(wb, 'beliefs', `/beliefs?entity=${encodeURIComponent('Ann Lee')}&at=${NOW - 25 * DAY}`, '[data-testid=belief-dimension]', { tall: 1100 });
  await shot(wb, 'beliefs-calibration', `/beliefs?entity=${encodeURIComponent('Ann Lee')}&at=${NOW - 25 * DAY}`, '[data-testid=belief-dimension]', {
    tall: 1100,
    after: async (w) => {
      await w.page.click('[data-testid=belief-calibration] summary');
      await w.page.waitForSelector('[data-testid=belief-reliability] canvas');
    },
  });
}
