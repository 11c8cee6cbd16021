/// <reference lib="dom" />
/**
 * The screenshots of agent credentials (issue #18): the Access audit naming the credential behind
 * each access, with its credential filter, and History naming the one behind each change; called
 * by scripts/screenshots.ts with its `shot` helper. `agentsUse` also gives the fleet shot's store
 * its credentials. The agents run in this process with the clock frozen at the fixture's `now`;
 * only the credentials' short ids (random, as issued) change from one run to the next.
 */
import { issueCredential, revokeCredentials, type AgentCredential } from '../core/agent/credentials.js';
import { call } from '../core/api/service.js';
import { fixedClock } from '../core/clock.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { expected } from '../support/fixture.js';
import type { Workbench } from '../support/workbench.js';
import { agentTurn } from '../support/agent-turn.js';

type Shot = (wb: Workbench, name: string, hash: string, ready: string, opts?: { tall?: number; after?: (wb: Workbench) => Promise<void> }) => Promise<void>;

const clock = fixedClock(expected().now as number);

export interface AgentsOnStore {
  laptop: AgentCredential;
  ci: AgentCredential;
  retired: AgentCredential;
}

/**
 * Three credentials on the store at `path` (one labelled, one named by its owner only, one revoked
 * before use), and a turn of each live one: what the audit and the fleet then attribute.
 */
export async function agentsUse(path: string): Promise<AgentsOnStore> {
  const store = MemoryStore.open(path, { clock });
  let agents: AgentsOnStore;
  try {
    agents = {
      laptop: issueCredential(store, { owner: 'Coder@laptop', label: 'coder on the laptop' }, clock).credential,
      ci: issueCredential(store, { owner: 'Planner@ci' }, clock).credential,
      retired: issueCredential(store, { owner: 'Coder@old-box', label: 'old build box' }, clock).credential,
    };
    revokeCredentials(store, agents.retired.id, clock);
  } finally {
    store.close();
  }
  await agentTurn(path, agents.laptop, 'The billing service deploys behind a feature flag until the canary is healthy.', 'deploy billing service', clock);
  await agentTurn(path, agents.ci, 'Plan the staging rollout after the flaky CI tests are quarantined.', 'flaky tests in ci', clock);
  return agents;
}

/** The audit with agents' accesses among the workbench's, then narrowed to one credential; History with the credential behind each change. */
export async function credentialShots(wb: Workbench, path: string, shot: Shot): Promise<void> {
  // A workbench edit first, so History shows a local change among the agents'.
  const id = (await call(wb.session, 'memory.list', { limit: 1, types: ['skill'] })).rows[0]!.id;
  await call(wb.session, 'memory.update', { id, patch: { importance: 8 } });
  const { ci } = await agentsUse(path);
  await shot(wb, 'audit-credentials', '/audit?channel=recalled', '[data-testid=access-row] [data-testid=credential-name]');
  await shot(wb, 'audit-credential-filter', `/audit?credential=${ci.id}`, `[data-testid=access-row] [data-credential-id="${ci.id}"]`);
  await shot(wb, 'history-credentials', '/history', '[data-testid=history-row] [data-testid=credential-name]');
}
