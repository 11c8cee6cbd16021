/**
 * Agent credentials: bearer tokens that bind a remote agent to one owner. A token is shown once,
 * when issued; the store keeps only its SHA-256. A request's owner is the one its token is bound
 * to, and its scopes narrow what it may do (see scope-guard.ts).
 *
 * Why a plain SHA-256 and not a slow password hash: the token is 256 bits from the system CSPRNG,
 * so no dictionary or brute-force search over the hash is feasible, and a fast hash lets every
 * request be verified without burning CPU. A slow KDF only helps low-entropy secrets.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { badInput, notFound } from '../errors.js';
import { CREDENTIAL_SCOPES, isCredentialScope, type AgentCredential, type CredentialScope } from '../model/agent-credential.js';
import { validateOwner } from '../model/owner.js';
import type { CredentialUse, StoreReader, StoreWriter } from '../store/port/port.js';

export type { AgentCredential, CredentialScope } from '../model/agent-credential.js';
export { CREDENTIAL_SCOPES, credentialName } from '../model/agent-credential.js';

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'mnemo_agt_';
const TOKEN_BYTES = 32;
/** base64url of 32 bytes, without padding. */
const TOKEN_PATTERN = /^mnemo_agt_[A-Za-z0-9_-]{43}$/;
const MAX_LABEL = 200;

/** Where credentials live: a store, or anything holding one (an engine). */
export type CredentialHost = StoreWriter | { readonly store: StoreWriter };
/** What a read of the credentials needs: any store, read-only ones too. */
export type CredentialReadHost = StoreReader | { readonly store: StoreReader };

function storeOf<S extends StoreReader>(host: S | { readonly store: S }): S {
  return 'store' in host ? host.store : host;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface IssueInput {
  owner: string;
  scopes?: readonly CredentialScope[];
  label?: string | null;
}

export interface IssuedCredential {
  credential: AgentCredential;
  /** The bearer token. It is not stored: show it once, it cannot be recovered. */
  token: string;
}

/** Issues a credential for `owner` (a `role@instance`, so each agent instance has its own). */
export function issueCredential(host: CredentialHost, input: IssueInput, clock: Clock): IssuedCredential {
  const owner = validateOwner(input.owner, 'owner');
  if (owner === '' || !owner.includes('@')) {
    throw badInput(`owner ${JSON.stringify(owner)} must be role@instance (e.g. coder@laptop): a credential names one agent instance`, { field: 'owner' });
  }
  const scopes = [...new Set(input.scopes ?? [])];
  for (const s of scopes) {
    if (!isCredentialScope(s)) throw badInput(`unknown scope ${JSON.stringify(s)}; scopes are ${CREDENTIAL_SCOPES.join(', ')}`, { field: 'scopes' });
  }
  const label = input.label?.trim() || null;
  if (label !== null && label.length > MAX_LABEL) throw badInput(`label is ${label.length} characters; keep it under ${MAX_LABEL}`, { field: 'label' });
  const token = TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
  const credential: AgentCredential = {
    id: randomBytes(6).toString('hex'),
    owner,
    scopes: CREDENTIAL_SCOPES.filter((s) => scopes.includes(s)),
    label,
    created_at: clock.now(),
    revoked_at: null,
  };
  storeOf(host).runs.insertCredential({ ...credential, token_hash: hashToken(token) });
  return { credential, token };
}

/**
 * The live credential a bearer token stands for; null for a malformed, unknown or revoked token
 * (the caller answers all three alike, 401, so a probe learns nothing).
 */
export function verifyCredentialToken(host: CredentialReadHost, token: string): AgentCredential | null {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
  const hash = hashToken(token);
  const row = storeOf(host).queries.credentialByHash(hash);
  if (!row) return null;
  // The lookup is by hash, which leaks nothing about the token; compare again in constant time so
  // that no code path ever compares secret-derived bytes with an early exit.
  if (!timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  if (row.revoked_at !== null) return null;
  return publicView(row);
}

function publicView(c: AgentCredential): AgentCredential {
  return { id: c.id, owner: c.owner, scopes: c.scopes, label: c.label, created_at: c.created_at, revoked_at: c.revoked_at };
}

export interface CredentialListing extends AgentCredential {
  accesses: number;
  changes: number;
  last_used: number | null;
}

/** Every credential issued (revoked ones too), oldest first, with how much each was used. */
export function listCredentials(host: CredentialReadHost): CredentialListing[] {
  const store = storeOf(host);
  const use = new Map<string, CredentialUse>(store.queries.credentialUse().map((u) => [u.credential_id, u]));
  return store.queries.listCredentialRows().map((c) => {
    const u = use.get(c.id);
    return { ...publicView(c), accesses: u?.accesses ?? 0, changes: u?.changes ?? 0, last_used: u?.last_used ?? null };
  });
}

/**
 * Revokes by credential id, or every live credential of an owner (`role@instance`). Returns the
 * credentials now revoked (an already revoked id is returned as it is, so revoking twice is harmless).
 */
export function revokeCredentials(host: CredentialHost, target: string, clock: Clock): AgentCredential[] {
  const store = storeOf(host);
  if (target.includes('@')) {
    const owner = validateOwner(target, 'owner');
    const live = store.queries.listCredentialRows().filter((c) => c.owner === owner && c.revoked_at === null);
    if (live.length === 0) throw notFound(`no live credential for ${owner}; list them with "mnemo agents list <store>"`, { field: 'target' });
    store.runs.markRevoked(live.map((c) => c.id), clock.now());
    return live.map((c) => publicView(store.queries.credentialById(c.id)!));
  }
  const c = store.queries.credentialById(target);
  if (!c) throw notFound(`no credential with id ${JSON.stringify(target)}; list them with "mnemo agents list <store>"`, { field: 'target' });
  store.runs.markRevoked([c.id], clock.now());
  return [publicView(store.queries.credentialById(c.id)!)];
}
