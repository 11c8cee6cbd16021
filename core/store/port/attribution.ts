/**
 * Which agent credential the current call runs for. Access events and journalled changes written
 * inside `runAttributed` record its id (the credential_id columns), so the audit and the fleet can
 * say which credential made each access and each change.
 *
 * Why an async context rather than a parameter: writes happen in a dozen operations at several
 * layers (remember, update, forget, link, reflection, intent firing, recall's access logging), and
 * one engine may serve several sessions at once (an HTTP server), so a field on the store would
 * attribute one session's write to another. The context follows each call through its awaits and
 * nothing else.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();
const agent = new AsyncLocalStorage<string>();

/**
 * Runs fn with `credentialId` as the attribution of every access and change it writes (null: none),
 * and, for an agent without a credential (a stdio MCP server, the library), `agentOwner`: its
 * changes then name the agent in History instead of passing for the operator's.
 */
export function runAttributed<T>(credentialId: string | null, fn: () => T, agentOwner: string | null = null): T {
  const inner = agentOwner === null ? fn : () => agent.run(agentOwner, fn);
  return credentialId === null ? inner() : current.run(credentialId, inner);
}

/** The credential the running call is attributed to, or null (the workbench, the CLI, a stdio agent). */
export function currentCredentialId(): string | null {
  return current.getStore() ?? null;
}

/** The agent (role@instance) the running call writes for when it has no credential; null for the operator. */
export function currentAgentOwner(): string | null {
  return current.getStore() === undefined ? (agent.getStore() ?? null) : null;
}

/** The journal meta key naming the agent of a change made without a credential. */
export const AGENT_META_KEY = 'by_agent';

/** A change's meta with the agent that makes it, when one without a credential does. */
export function withAgentMeta(meta: Record<string, unknown> | undefined | null): Record<string, unknown> | null {
  const owner = currentAgentOwner();
  if (owner === null) return meta ?? null;
  return { ...(meta ?? {}), [AGENT_META_KEY]: owner };
}

/** The agent a change's meta names (withAgentMeta), or null. */
export function agentOfMeta(meta: unknown): string | null {
  const v = meta && typeof meta === 'object' ? (meta as Record<string, unknown>)[AGENT_META_KEY] : null;
  return typeof v === 'string' ? v : null;
}
