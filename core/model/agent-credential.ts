/**
 * An agent credential: a bearer token bound to one owner (`role@instance`), optionally narrowed by
 * scopes. Only the token's hash is stored (core/store/sqlite/agent-credentials.ts); issuing and verifying
 * live in core/agent/credentials.ts. A shape of the model because the store, the agent room and the
 * API all name it.
 */
export const CREDENTIAL_SCOPES = ['read-only', 'no-reflect'] as const;

/** A credential's id: 12 hex digits (6 random bytes), short enough to type, as `mnemo agents list` shows it. */
export const CREDENTIAL_ID_PATTERN = /^[0-9a-f]{12}$/;

/** What an audit filter names to list the accesses or changes made without a credential (the workbench, the CLI, a stdio agent). */
export const LOCAL_CREDENTIAL = 'local';

/** The credential id an audit's filter names; null for "local", what was done without one. */
export function filteredCredentialId(filter: string): string | null {
  return filter === LOCAL_CREDENTIAL ? null : filter;
}

/** `read-only`: no write of any kind (reads still log their accesses). `no-reflect`: no reflection pass. */
export type CredentialScope = (typeof CREDENTIAL_SCOPES)[number];

export interface AgentCredential {
  id: string;
  owner: string;
  scopes: readonly CredentialScope[];
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

/** What the audit shows of the credential behind an access or a change (owner and label null when it is no longer in the store). */
export interface CredentialRef {
  id: string;
  owner: string | null;
  label: string | null;
}

export function isCredentialScope(s: string): s is CredentialScope {
  return (CREDENTIAL_SCOPES as readonly string[]).includes(s);
}

/** How people see a credential: its label, else its owner, with the short id that tells two apart. */
export function credentialName(c: Pick<AgentCredential, 'id' | 'owner' | 'label'>): string {
  return `${c.label ?? c.owner} (${c.id})`;
}
