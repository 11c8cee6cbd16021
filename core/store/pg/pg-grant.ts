/**
 * `mnemo pg grant <role@instance> <url>`: a PostgreSQL LOGIN role for one agent, held by the
 * database itself to what it could do through the engine, whatever SQL it sends (docs/postgres.md,
 * "Agents' roles: privileges table by table").
 *
 * The owner rule is the engine's (docs/security.md, "Owners are compared exactly"): an agent reads
 * and writes its role's rows (every instance, and legacy bare-role rows) and shared rows (owner ''),
 * which nooa lets everyone write. Row-level security holds it there (pg-agent-privileges.ts); every
 * write it makes to memories, edges and tombstones must be journalled, checked at commit
 * (pg-agent-writes-ddl.ts), and its journal entries are made by the server from what it saw
 * (pg-agent-journal-ddl.ts), so no later operator undo can be turned against anyone. Store-wide
 * settings, saved profiles, beliefs and run markers are read-only to it; the journal, credentials
 * and the write ledger closed.
 *
 * Operators: the role that owns the schema's tables (the one that made the store) is not subject
 * to the policies (row-level security is enabled, not forced), nor is a superuser or a role with
 * BYPASSRLS. That is who copies stores, grants agents and runs the workbench over everyone.
 */
import { randomBytes } from 'node:crypto';
import { badInput, MnemoError } from '../../errors.js';
import { validateOwner } from '../../model/owner.js';
import { PROGRESS_TABLE } from '../copy/copy-endpoint.js';
import { AGENTS_TABLE } from './pg-agent-privileges.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { PgStore } from './pg-store.js';
import { installGuards } from './pg-store-guards.js';
import { ident, parsePgStoreUrl, storeUrlAs } from './pg-url.js';
import { SyncPg } from './sync-pg.js';

export { AGENTS_TABLE };

export interface GrantResult {
  owner: string;
  role: string;
  schema: string;
  /** The generated password, shown once; null when it was given (--password-stdin). */
  password: string | null;
  /** The store URL to connect as the agent (no password in it). */
  url: string;
  /** Whether the role existed already (its password was replaced). */
  existed: boolean;
  /** What the grant's upgrade of the store set aside (run markers from before it), for people. */
  warnings: string[];
}

const PASSWORD_MAX = 1000;

function checkedPassword(given: string | undefined): string {
  if (given === undefined) return randomBytes(24).toString('base64url');
  const p = given.replace(/\r?\n$/, '');
  if (p.length === 0 || p.length > PASSWORD_MAX || /[\r\n]/.test(p) || p.includes(String.fromCharCode(0))) {
    throw badInput(`the password on standard input must be one line of 1 to ${PASSWORD_MAX} characters`, { field: 'password' });
  }
  return p;
}

/** The owner, validated: an agent is `role@instance`. */
function agentOwner(owner: string): string {
  validateOwner(owner);
  if (!owner.includes('@')) throw badInput(`owner ${JSON.stringify(owner)} is a role; grant one agent: role@instance (for example ${owner}@1)`, { field: 'owner' });
  return owner;
}

export function grantAgent(storeUrl: string, ownerInput: string, givenPassword?: string): GrantResult {
  const url = parsePgStoreUrl(storeUrl);
  const owner = agentOwner(ownerInput);
  const role = `${url.schema}.${owner}`;
  if (Buffer.byteLength(role) > 63) {
    throw badInput(`the role name ${JSON.stringify(role)} (schema.owner) is longer than PostgreSQL's 63 bytes; use a shorter schema or owner`, { field: 'owner' });
  }
  const password = checkedPassword(givenPassword);
  const db = SyncPg.connect(url.connection);
  try {
    const s = ident(url.schema);
    const t = (name: string) => `${s}.${ident(name)}`;
    const present = new Set(db.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1', [url.schema]).map((r) => r.name));
    if (!present.has(PG_STORE_TABLE)) throw new MnemoError('not_found', `${url.shown} holds no store; copy one into it first (mnemo copy <store> ${url.shown})`, { schema: url.schema });
    if (present.has(PROGRESS_TABLE)) throw new MnemoError('conflict', `${url.shown} holds an unfinished copy; finish it (mnemo copy … --resume) first`, { schema: url.schema });
    // A copy of a store only nooa wrote gains Mnemo's rows at its first Mnemo write, which an agent's role may not make: make it now.
    const store = PgStore.open(storeUrl, { onWarning: () => {} });
    try {
      store.ensureMnemo();
    } finally {
      store.close();
    }
    let existed = false;
    let warnings: string[] = [];
    db.transaction(() => {
      existed = db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]).length > 0;
      const [statement] = db.query<{ sql: string }>(`SELECT format('${existed ? 'ALTER' : 'CREATE'} ROLE %I WITH LOGIN PASSWORD %L', $1::text, $2::text) AS sql`, [role, password]);
      db.query(statement!.sql);
      db.query(`CREATE TABLE IF NOT EXISTS ${t(AGENTS_TABLE)} (db_role text COLLATE "C" PRIMARY KEY, owner text COLLATE "C" NOT NULL)`);
      db.query(`INSERT INTO ${t(AGENTS_TABLE)}(db_role, owner) VALUES ($1, $2) ON CONFLICT (db_role) DO UPDATE SET owner = excluded.owner`, [role, owner]);
      // Policies, the ledger, the journal's door, and every agent's grants (this one's included), as this build makes them.
      warnings = installGuards(db, url.schema, { withAgents: true });
    });
    return { owner, role, schema: url.schema, password: givenPassword === undefined ? password : null, url: storeUrlAs(url, role), existed, warnings };
  } finally {
    db.close();
  }
}
