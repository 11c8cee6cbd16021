/**
 * What a credential's scopes allow. Every door that serves a credential asks here before it writes
 * or reflects: AgentMemory (the MCP tools, the library) and the API service (core/api/credential-policy.ts).
 */
import { MnemoError } from '../errors.js';
import { credentialName, type AgentCredential } from '../model/agent-credential.js';

/** `write`: anything that changes the store besides access bookkeeping. `reflect`: a reflection pass (also a write). */
export type GuardedAction = 'write' | 'reflect';

/** Throws a permission error naming the scope that refuses `what`; a session without a credential may do anything its owner may. */
export function assertCredentialAllows(credential: AgentCredential | null, action: GuardedAction, what: string): void {
  if (!credential) return;
  if (credential.scopes.includes('read-only')) {
    throw new MnemoError('permission', `credential ${credentialName(credential)} has the read-only scope, so ${what} is refused: it would change the store. Ask for a credential without read-only to write.`, {
      credential_id: credential.id,
      scope: 'read-only',
    });
  }
  if (action === 'reflect' && credential.scopes.includes('no-reflect')) {
    throw new MnemoError('permission', `credential ${credentialName(credential)} has the no-reflect scope, so ${what} is refused. Ask for a credential without no-reflect to run reflection.`, {
      credential_id: credential.id,
      scope: 'no-reflect',
    });
  }
}
