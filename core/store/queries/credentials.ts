/**
 * The agent credential table (mnemo_agent_credentials): one row per issued token, holding the
 * token's hash and never the token. Attribution lives on the rows the credential wrote
 * (mnemo_access_events.credential_id, mnemo_journal.credential_id); "last used" is read from them
 * through their partial indexes, so verifying a token never writes. Written once for both backends
 * (port/store-sql.ts).
 */
import type { CredentialRef, CredentialScope } from '../../model/agent-credential.js';
import type { StoreReader, StoreWriter } from '../port/port.js';
import type { CredentialUse, StoredCredential } from '../port/store-rows.js';
import { intOf } from '../shared/sql-values.js';
import { query } from '../shared/store-query.js';

const TABLE = 'mnemo_agent_credentials';
const COLS = 'id, owner, token_hash, scopes, label, created_at, revoked_at';

type Reads = Pick<StoreReader, 'sql'>;

function toCredential(r: Record<string, unknown>): StoredCredential {
  return {
    id: r['id'] as string,
    owner: r['owner'] as string,
    token_hash: r['token_hash'] as string,
    scopes: JSON.parse(r['scopes'] as string) as CredentialScope[],
    label: r['label'] as string | null,
    created_at: r['created_at'] as number,
    revoked_at: r['revoked_at'] as number | null,
  };
}

function one(store: Reads, where: string, value: string): StoredCredential | null {
  if (!store.sql.hasTable(TABLE)) return null;
  const row = store.sql.get(query(`SELECT ${COLS} FROM ${store.sql.table(TABLE)} WHERE ${where} = ?`, [value]));
  return row ? toCredential(row) : null;
}

/** Stores a new credential (its token's hash only). */
export function insertCredential(store: StoreWriter, c: StoredCredential): void {
  store.transaction(() => {
    store.ensureMnemo();
    store.sql.run(query(`INSERT INTO ${store.sql.table(TABLE)}(${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [c.id, c.owner, c.token_hash, JSON.stringify(c.scopes), c.label, c.created_at, c.revoked_at]));
  });
}

/** The credential whose token hashes to `tokenHash`, revoked or not; null when none (or no table yet). */
export function credentialByHash(store: Reads, tokenHash: string): StoredCredential | null {
  return one(store, 'token_hash', tokenHash);
}

export function credentialById(store: Reads, id: string): StoredCredential | null {
  return one(store, 'id', id);
}

/** Every credential issued, revoked ones too, oldest first. */
export function listCredentialRows(store: Reads): StoredCredential[] {
  if (!store.sql.hasTable(TABLE)) return [];
  return store.sql.all(query(`SELECT ${COLS} FROM ${store.sql.table(TABLE)} ORDER BY created_at, rowid`)).map(toCredential);
}

/** Marks the given credentials revoked at `now` (already revoked ones keep their time); returns the ids that were live. */
export function markRevoked(store: StoreWriter, ids: readonly string[], now: number): string[] {
  const changed: string[] = [];
  store.transaction(() => {
    store.ensureMnemo();
    const update = `UPDATE ${store.sql.table(TABLE)} SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`;
    for (const id of ids) if (store.sql.run(query(update, [now, id])) > 0) changed.push(id);
  });
  return changed;
}

/** Each credential's name, by id, for the audit rows that record one. */
export function credentialRefs(store: Reads): Map<string, CredentialRef> {
  return new Map(listCredentialRows(store).map((c) => [c.id, { id: c.id, owner: c.owner, label: c.label }]));
}

/** Accesses and changes per credential (only credentials that made any), through the partial indexes. */
export function credentialUse(store: Reads): CredentialUse[] {
  if (!store.sql.hasTable(TABLE)) return [];
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
    const rows = store.sql.all(query(`SELECT credential_id AS id, count(*) AS n, max(ts) AS last FROM ${store.sql.table(table)} WHERE credential_id IS NOT NULL GROUP BY credential_id`));
    for (const r of rows) {
      const u = entry(r['id'] as string);
      u[count] = intOf(r['n'], 'count(*)');
      u.last_used = later(u.last_used, r['last'] as number);
    }
  }
  return [...use.values()];
}
