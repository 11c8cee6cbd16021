/**
 * The credential filter a link names (`credential=<id>` or `credential=local`), checked against the
 * store's credentials: a value that names none of them is reported and dropped, not sent to the
 * engine to come back as a validation error.
 */
import type { AuditCredential } from '../../core/api/contract/index.js';

/** The filter value for what was done without a credential (the engine's word for it). */
export const LOCAL = 'local';

export interface CredentialParam {
  /** What to filter by: a credential id, "local", or null for no filter. */
  value: string | null;
  /** A sentence for people when the link's value was dropped. */
  error: string | null;
  /** False while the store's credentials are still loading and the link's value cannot be checked yet. */
  ready: boolean;
}

export function credentialParam(raw: string | null, credentials: readonly AuditCredential[] | undefined, listed: 'accesses' | 'changes'): CredentialParam {
  if (raw === null || raw === '') return { value: null, error: null, ready: true };
  if (raw === LOCAL) return { value: LOCAL, error: null, ready: true };
  if (credentials === undefined) return { value: null, error: null, ready: false };
  if (credentials.some((c) => c.id === raw)) return { value: raw, error: null, ready: true };
  return { value: null, error: `The link's credential "${raw}" is not one of this store's credentials; showing every credential's ${listed} instead.`, ready: true };
}
