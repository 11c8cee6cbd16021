/**
 * The agent credential table (mnemo_agent_credentials): one row per issued token, holding the
 * token's hash and never the token. Attribution lives on the rows the credential wrote
 * (mnemo_access_events.credential_id, mnemo_journal.credential_id); "last used" is read from them
 * through their partial indexes, so verifying a token never writes.
 */
import type { AgentCredential, CredentialRef, CredentialScope } from '../../model/agent-credential.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { statementOf } from './connection.js';

interface CredentialRow {
  id: string;
  owner: string;
  token_hash: string;
  scopes: string;
  label: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface StoredCredential extends AgentCredential {
  token_hash: string;
}

/** Use of one credential, from the rows it wrote. */
export interface CredentialUse {
  credential_id: string;
  accesses: number;
  changes: number;
  /** Latest access or change made with it; null when never used. */
  last_used: number | null;
}

function hasTable(store: object): boolean {
  return statementOf(store, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_agent_credentials'").get() !== undefined;
}

function toCredential(r: CredentialRow): StoredCredential {
  return {
    id: r.id,
    owner: r.owner,
    token_hash: r.token_hash,
    scopes: JSON.parse(r.scopes) as CredentialScope[],
    label: r.label,
    created_at: r.created_at,
    revoked_at: r.revoked_at,
  };
}

export function insertCredential(store: StoreHandle, c: StoredCredential): void {
  store.transaction(() => {
    store.ensureMnemo();
    statementOf(store, 'INSERT INTO mnemo_agent_credentials(id, owner, token_hash, scopes, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(c.id, c.owner, c.token_hash, JSON.stringify(c.scopes), c.label, c.created_at, c.revoked_at);
  });
}

/** The credential whose token hashes to `tokenHash`, revoked or not; null when none (or no table yet). */
export function credentialByHash(store: StoreHandle, tokenHash: string): StoredCredential | null {
  if (!hasTable(store)) return null;
  const row = statementOf(store, 'SELECT * FROM mnemo_agent_credentials WHERE token_hash = ?').get(tokenHash) as CredentialRow | undefined;
  return row ? toCredential(row) : null;
}

export function credentialById(store: StoreHandle, id: string): StoredCredential | null {
  if (!hasTable(store)) return null;
  const row = statementOf(store, 'SELECT * FROM mnemo_agent_credentials WHERE id = ?').get(id) as CredentialRow | undefined;
  return row ? toCredential(row) : null;
}

/** Every credential issued, oldest first. */
export function listCredentialRows(store: object): StoredCredential[] {
  if (!hasTable(store)) return [];
  return (statementOf(store, 'SELECT * FROM mnemo_agent_credentials ORDER BY created_at, rowid').all() as CredentialRow[]).map(toCredential);
}

/** Marks the given credentials revoked at `now` (already revoked ones keep their time); returns the ids changed. */
export function markRevoked(store: StoreHandle, ids: readonly string[], now: number): string[] {
  const changed: string[] = [];
  store.transaction(() => {
    store.ensureMnemo();
    const upd = statementOf(store, 'UPDATE mnemo_agent_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    for (const id of ids) if (upd.run(now, id).changes > 0) changed.push(id);
  });
  return changed;
}

/** Each credential's name, by id, for the audit rows that record one. */
export function credentialRefs(store: object): Map<string, CredentialRef> {
  return new Map(listCredentialRows(store).map((c) => [c.id, { id: c.id, owner: c.owner, label: c.label }]));
}

/** Accesses and changes per credential (only credentials that made any), through the partial indexes. */
export function credentialUse(store: object): CredentialUse[] {
  if (!hasTable(store)) return [];
  const use = new Map<string, CredentialUse>();
  const entry = (id: string) => {
    let u = use.get(id);
    if (!u) use.set(id, (u = { credential_id: id, accesses: 0, changes: 0, last_used: null }));
    return u;
  };
  const later = (a: number | null, b: number) => (a === null || b > a ? b : a);
  // The two tables a credential writes to, and the count each one feeds.
  const attributed = [['mnemo_access_events', 'accesses'], ['mnemo_journal', 'changes']] as const;
  for (const [table, count] of attributed) {
    const rows = statementOf(store, `SELECT credential_id AS id, count(*) AS n, max(ts) AS last FROM ${table} WHERE credential_id IS NOT NULL GROUP BY credential_id`)
      .all() as { id: string; n: number; last: number }[];
    for (const r of rows) {
      const u = entry(r.id);
      u[count] = r.n;
      u.last_used = later(u.last_used, r.last);
    }
  }
  return [...use.values()];
}
