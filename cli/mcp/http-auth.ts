/**
 * Who is calling the MCP HTTP endpoint. A request's owner comes only from its bearer token (or,
 * with --anonymous on loopback, from that one owner): no argument, header or session id can change
 * it. The token itself is never kept: only the credential it resolves to.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AgentCredential } from '../../core/model/agent-credential.js';

export type { AgentCredential } from '../../core/model/agent-credential.js';

/** Resolves a presented token to its live credential, or null (unknown or revoked); the store's verifier asks an engine worker. */
export type CredentialVerifier = (token: string) => AgentCredential | null | Promise<AgentCredential | null>;

export interface Caller {
  /** What limits and sessions are keyed by: the credential id, or `anonymous:<owner>`. */
  key: string;
  owner: string;
  credential: AgentCredential | null;
}

export type AuthOutcome = { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'invalid' };

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  return m ? m[1]! : null;
}

export async function authenticate(authorization: string | undefined, verify: CredentialVerifier, anonymousOwner: string | null): Promise<AuthOutcome> {
  const token = bearerToken(authorization);
  if (token === null) {
    // A malformed Authorization header is a failed attempt, not an anonymous request.
    if (authorization !== undefined) return { ok: false, reason: 'invalid' };
    if (anonymousOwner !== null) return { ok: true, caller: { key: `anonymous:${anonymousOwner}`, owner: anonymousOwner, credential: null } };
    return { ok: false, reason: 'missing' };
  }
  const credential = await verify(token);
  if (!credential || credential.revoked_at !== null) return { ok: false, reason: 'invalid' };
  return { ok: true, caller: { key: `credential:${credential.id}`, owner: credential.owner, credential } };
}

/** The WWW-Authenticate challenge of a 401 (RFC 6750): which scheme, and whether a token was wrong. */
export function challenge(reason: 'missing' | 'invalid'): string {
  return reason === 'missing' ? 'Bearer realm="mnemo"' : 'Bearer realm="mnemo", error="invalid_token", error_description="the token is unknown or revoked"';
}

/**
 * A verifier over a fixed token → credential table, comparing in constant time (for tests and
 * embedders that hold their own tokens; the CLI verifies against the store's hashed credentials).
 */
export function tableVerifier(table: ReadonlyMap<string, AgentCredential>): CredentialVerifier {
  return (token) => {
    const given = Buffer.from(token);
    for (const [known, credential] of table) {
      const k = Buffer.from(known);
      if (k.length === given.length && timingSafeEqual(k, given)) return credential;
    }
    return null;
  };
}
