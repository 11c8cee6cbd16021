/**
 * The credential verifier of `mnemo mcp --http`: tokens issued per agent (the agents add command),
 * checked against the hashes kept in the store (core/agent/credentials.ts), by an engine worker
 * (agent-worker.ts; this thread reads no store). Looked up on every request, so a revocation holds
 * from the next request on, even from another process.
 */
import type { AgentCredential } from '../../core/model/agent-credential.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import { MnemoError, type ErrorCode } from '../../core/errors.js';
import type { CredentialVerifier } from './http-auth.js';

export function storeCredentialVerifier(host: EngineHost): CredentialVerifier {
  return async (token) => {
    const envelope = await host.request('light', 'credentials.verify', { token });
    if (!envelope.ok) throw new MnemoError(envelope.error.code as ErrorCode, envelope.error.message);
    return envelope.value as AgentCredential | null;
  };
}
