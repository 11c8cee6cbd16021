/// <reference lib="dom" />
/**
 * Issue 18 in Chromium: two agents, each with its own credential, remember and recall on a store
 * the workbench has open. The Access audit names each access's credential and narrows to one with
 * its filter, History names the credential behind each change, and Fleet lists both credentials
 * with the accesses and changes each made.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCredential, revokeCredentials, type AgentCredential } from '../../core/agent/credentials.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { expected, FIXTURE_STORE, tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';
import { axeFindings } from '../helpers/axe.js';
import { agentTurn } from '../../support/agent-turn.js';

const NOW = expected().now as number;
const clock = fixedClock(NOW);
const STORE = 'agents.sqlite';
/** A full credential id or a 32-hex memory id: neither should reach the page's text. */
const LONG_HEX = /\b[0-9a-f]{12,}\b/;

let wb: Workbench;
let folder: string;
let laptop: AgentCredential;
let ci: AgentCredential;
let retired: AgentCredential;
const changeBy = new Map<string, number>();

beforeAll(async () => {
  folder = tempDir('mnemo-cred-e2e-');
  const path = join(folder, STORE);
  copyFileSync(FIXTURE_STORE, path);
  const store = MemoryStore.open(path, { clock });
  laptop = issueCredential(store, { owner: 'coder@laptop', label: 'coder on the laptop' }, clock).credential;
  ci = issueCredential(store, { owner: 'reviewer@ci' }, clock).credential;
  retired = issueCredential(store, { owner: 'coder@old-box', label: 'old box' }, clock).credential;
  revokeCredentials(store, retired.id, clock);
  store.close();
  wb = await openWorkbench(path, { now: NOW, width: 1500, height: 900, roots: [folder] });
  await agentTurn(path, laptop, 'The nightly build publishes artefacts to the staging bucket.', 'nightly build staging', clock);
  await agentTurn(path, ci, 'Reviews wait for the integration tests before approving a merge.', 'integration tests review', clock);
  for (const c of await call(wb.session, 'journal.history', { limit: 5 })) if (c.credential_id) changeBy.set(c.credential_id, c.id);
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const auditRowsOf = (p: Workbench['page']) => p.locator('[data-testid=access-row]');

describe('which credential made each access and each change', () => {
  it('the Access audit names each access with its credential, and the filter narrows to one', async () => {
    const p = wb.page;
    await wb.go('/audit');
    await auditRowsOf(p).first().waitFor();
    const names = p.locator('[data-testid=access-row] [data-testid=credential-name]');
    const shown = new Map<string, string>();
    for (const el of await names.all()) shown.set((await el.getAttribute('data-credential-id'))!, (await el.textContent())!);
    expect(shown.get(laptop.id)).toBe(`coder on the laptop · ${laptop.id.slice(0, 6)}`);
    expect(shown.get(ci.id)).toBe(`reviewer@ci · ${ci.id.slice(0, 6)}`);

    // The select offers every credential, the revoked one marked, and local.
    const select = p.locator('[data-testid=audit-credential]');
    const options = await select.locator('option').evaluateAll((els) => els.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ['', 'any'],
      ['local', 'local (no credential)'],
      [laptop.id, `coder on the laptop · ${laptop.id.slice(0, 6)}`],
      [ci.id, `reviewer@ci · ${ci.id.slice(0, 6)}`],
      [retired.id, `old box · ${retired.id.slice(0, 6)} (revoked)`],
    ]);

    await select.selectOption(ci.id);
    await p.waitForFunction(() => window.location.hash.includes('credential='));
    const expectedTotal = (await call(wb.session, 'access.list', { credential: ci.id })).total;
    expect(expectedTotal).toBeGreaterThan(0);
    await p.waitForSelector(`[data-testid=audit-total][data-total="${expectedTotal}"]`);
    const ids = await names.evaluateAll((els) => els.map((e) => e.getAttribute('data-credential-id')));
    expect(ids.length).toBe(Math.min(expectedTotal, 200));
    expect(new Set(ids)).toEqual(new Set([ci.id]));
    expect(await auditRowsOf(p).count()).toBe(ids.length);
    // The filter is labelled and the narrowed table has no serious accessibility finding.
    expect((await axeFindings(p, 'serious')).map((f) => `${f.id} @ ${f.targets.join(' | ')}`)).toEqual([]);
    expect(routeOf(await p.evaluate(() => window.location.hash))).toEqual({ view: '#/audit', credential: ci.id });

    // Local: the fixture's own accesses, none with a credential.
    await select.selectOption('local');
    const localTotal = (await call(wb.session, 'access.list', { credential: 'local' })).total;
    await p.waitForSelector(`[data-testid=audit-total][data-total="${localTotal}"]`);
    expect(await names.count()).toBe(0);

    // A link naming a credential this store does not have is reported, and every access is shown.
    await wb.go('/audit?credential=ffffffffffff');
    await p.waitForSelector('[data-testid=url-param-error]');
    expect(await p.textContent('[data-testid=url-param-error]')).toBe(
      `The link's credential "ffffffffffff" is not one of this store's credentials; showing every credential's accesses instead.`,
    );
    const allTotal = (await call(wb.session, 'access.list', {})).total;
    await p.waitForSelector(`[data-testid=audit-total][data-total="${allTotal}"]`);
    expect(wb.pageErrors).toEqual([]);
  });

  it('History shows the credential behind each change, and filters by it', async () => {
    const p = wb.page;
    await wb.go('/history');
    for (const c of [laptop, ci]) {
      const cell = p.locator(`[data-testid=history-row][data-change-id="${changeBy.get(c.id)}"] [data-testid=credential-name]`);
      await cell.waitFor();
      expect(await cell.getAttribute('data-credential-id')).toBe(c.id);
    }
    // The writer: the agent's owner, then its credential's label and short id (issue 41).
    expect(await p.textContent(`[data-testid=history-row][data-change-id="${changeBy.get(laptop.id)}"] [data-testid=history-credential-cell]`)).toBe(
      `agent ${laptop.owner} (coder on the laptop · ${laptop.id.slice(0, 6)})`,
    );
    await p.locator('[data-testid=history-credential]').selectOption(laptop.id);
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=history-row]').length === 1);
    expect(await p.getAttribute('[data-testid=history-row]', 'data-change-id')).toBe(String(changeBy.get(laptop.id)));
    expect((await axeFindings(p, 'serious')).map((f) => `${f.id} @ ${f.targets.join(' | ')}`)).toEqual([]);
    await p.locator('[data-testid=history-credential]').selectOption(retired.id);
    await p.waitForSelector('[data-testid=empty-state]');
    expect(await p.locator('[data-testid=history-row]').count()).toBe(0);
    expect(wb.pageErrors).toEqual([]);
  });

  it('Fleet lists both credentials of the store with the accesses and changes each made', async () => {
    const p = wb.page;
    await wb.go('/fleet');
    await p.fill('[data-testid=fleet-folder]', folder);
    await p.click('[data-testid=fleet-open-folder]');
    const row = `[data-testid=fleet-row][data-name="${STORE}"]`;
    await p.waitForSelector(`${row} [data-testid=fleet-credentials]`);
    const kpis = await call(wb.session, 'fleet.kpis', { name: STORE });
    for (const c of [laptop, ci]) {
      const use = kpis.credentials.find((u) => u.id === c.id)!;
      expect(use.changes).toBe(1);
      expect(use.accesses).toBeGreaterThan(0);
      const item = p.locator(`${row} [data-testid=fleet-credentials] li[data-credential-id="${c.id}"]`);
      const text = (await item.textContent())!;
      expect(text).toContain(`${c.label ?? c.owner} · ${c.id.slice(0, 6)}`);
      expect(text).toContain(`${use.accesses} ${use.accesses === 1 ? 'access' : 'accesses'}, 1 change`);
      expect(text).not.toMatch(LONG_HEX);
    }
    const revoked = p.locator(`${row} [data-testid=fleet-credentials] li[data-credential-id="${retired.id}"]`);
    expect(await revoked.locator('.badge').textContent()).toBe('revoked');
    expect(await revoked.textContent()).toContain('never used');
    expect(wb.pageErrors).toEqual([]);
  });
});

/** The view and the credential filter of a hash route, for comparing links. */
function routeOf(hash: string): { view: string; credential: string | null } {
  const [view, query] = hash.split('?');
  return { view: view!, credential: new URLSearchParams(query ?? '').get('credential') };
}
