/**
 * The credential verifier of `mnemo mcp --http`: tokens issued per agent (the agents add command),
 * checked against the hashes kept in the store (core/agent/credentials.ts). Looked up on every
 * request, so a revocation holds from the next request on, even from another process.
 */
import { verifyCredentialToken } from '../../core/agent/credentials.js';
import type { Engine } from '../../core/engine/engine.js';
import type { CredentialVerifier } from './http-auth.js';

export function storeCredentialVerifier(engine: Engine): CredentialVerifier {
  return (token) => verifyCredentialToken(engine, token);
}
