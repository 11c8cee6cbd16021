/**
 * Which service methods a session serving an agent credential may call. Agents reach the store
 * through AgentMemory (the MCP tools), which enforces the owner policy on every write; the service
 * methods themselves act with the workbench user's authority. So a credential session gets only
 * the reads AgentMemory makes through the service, and everything else is refused, naming the
 * credential's scope when that scope is the reason.
 */
import { assertCredentialAllows } from '../agent/scope-guard.js';
import { MnemoError } from '../errors.js';
import { credentialName, type AgentCredential } from '../model/agent-credential.js';
import { changesWhatViewsShow, type MethodName } from './contract/index.js';

/** Reads whose owner scope AgentMemory sets; they log accesses, which any scope may. */
export const CREDENTIAL_METHODS: ReadonlySet<MethodName> = new Set<MethodName>(['recall.run', 'recall.search', 'recall.explain', 'store.info']);

export function assertMethodAllowed(credential: AgentCredential | null, method: MethodName): void {
  if (!credential || CREDENTIAL_METHODS.has(method)) return;
  if (method.startsWith('reflect.')) assertCredentialAllows(credential, 'reflect', method);
  if (changesWhatViewsShow(method)) assertCredentialAllows(credential, 'write', method);
  throw new MnemoError('permission', `credential ${credentialName(credential)} reaches the store through the agent tools only; ${method} is not one of them (it may call ${[...CREDENTIAL_METHODS].join(', ')})`, {
    credential_id: credential.id,
    method,
  });
}
