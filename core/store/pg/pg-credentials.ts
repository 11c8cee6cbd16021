/**
 * The agent credential table on PostgreSQL (agent-credentials.ts is SQLite's): the token's hash,
 * never the token; "last used" read from the rows the credential wrote (access events and journal
 * entries), so verifying a token never writes.
 */
import type { CredentialRef, CredentialScope } from '../../model/agent-credential.js';
import type { CredentialUse, StoredCredential } from '../sqlite/agent-credentials.js';
import { intOf } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const COLS = 'id, owner, token_hash, scopes, label, created_at, revoked_at';

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

export class PgCredentials {
  constructor(private readonly conn: PgStoreConnection) {}

  private get table(): string {
    return this.conn.table('mnemo_agent_credentials');
  }

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  /** Call inside the store's transaction. */
  insert(c: StoredCredential): void {
    this.q(`INSERT INTO ${this.table}(${COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [c.id, c.owner, c.token_hash, JSON.stringify(c.scopes), c.label, c.created_at, c.revoked_at]);
  }

  byHash(tokenHash: string): StoredCredential | null {
    const [r] = this.q(`SELECT ${COLS} FROM ${this.table} WHERE token_hash = $1`, [tokenHash]);
    return r ? toCredential(r) : null;
  }

  byId(id: string): StoredCredential | null {
    const [r] = this.q(`SELECT ${COLS} FROM ${this.table} WHERE id = $1`, [id]);
    return r ? toCredential(r) : null;
  }

  /** Every credential issued, oldest first. */
  list(): StoredCredential[] {
    return this.q(`SELECT ${COLS} FROM ${this.table} ORDER BY created_at, rowid`).map(toCredential);
  }

  /** Marks live credentials revoked at `now`; returns the ids changed. Call inside the store's transaction. */
  markRevoked(ids: readonly string[], now: number): string[] {
    const changed: string[] = [];
    for (const id of ids) {
      if (this.q(`UPDATE ${this.table} SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING 1`, [now, id]).length > 0) changed.push(id);
    }
    return changed;
  }

  refs(): Map<string, CredentialRef> {
    return new Map(this.list().map((c) => [c.id, { id: c.id, owner: c.owner, label: c.label }]));
  }

  /** Accesses and changes per credential (only credentials that made any). */
  use(): CredentialUse[] {
    const use = new Map<string, CredentialUse>();
    const attributed = [
      ['mnemo_access_events', 'accesses'],
      ['mnemo_journal', 'changes'],
    ] as const;
    for (const [table, count] of attributed) {
      const rows = this.q(`SELECT credential_id AS id, count(*) AS n, max(ts) AS last FROM ${this.conn.table(table)} WHERE credential_id IS NOT NULL GROUP BY credential_id`);
      for (const r of rows) {
        const id = r['id'] as string;
        let u = use.get(id);
        if (!u) use.set(id, (u = { credential_id: id, accesses: 0, changes: 0, last_used: null }));
        u[count] = intOf(r['n'], 'count(*)');
        const last = r['last'] as number;
        u.last_used = u.last_used === null || last > u.last_used ? last : u.last_used;
      }
    }
    return [...use.values()];
  }
}
