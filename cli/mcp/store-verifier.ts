/**
 * The credential verifier `mnemo mcp --http` uses: tokens issued by `mnemo agents add`, checked
 * against the hashes kept in the store.
 *
 * Wiring point: per-agent credentials (core/agent/credentials.ts) are being built in parallel.
 * Until they land, no token is valid, so only --anonymous (loopback) serves requests.
 */
import type { Engine } from '../../core/engine/engine.js';
import type { CredentialVerifier } from './http-auth.js';

export function storeCredentialVerifier(_engine: Engine): CredentialVerifier {
  return () => null;
}
