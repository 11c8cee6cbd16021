/**
 * `mnemo pg grant <role@instance> <url>`: a PostgreSQL LOGIN role for one agent, and row-level
 * security so that the database itself holds the agent to the owner rule (docs/security.md,
 * "Owners are compared exactly"), whatever SQL it sends.
 *
 * The rule is the engine's, not a new one: an agent reads and writes what `ownerMatches` (at its
 * role scope) and `ownerMayWrite` allow, which are the same set of rows: its role's own rows (every
 * instance, and legacy bare-role rows) and shared rows (owner ''), which nooa lets everyone write.
 * In SQL: `owner = '' OR owner = r OR (owner >= 'r@' AND owner < 'rA')`, exact and case-sensitive
 * (the columns are COLLATE "C"). Rows that name no owner follow the memory they belong to: an edge
 * its source memory, an access event, a delta or a feed row its memory (a feed row's before-image
 * by the owner it records). A new or changed row must land inside the scope too, so an agent
 * cannot hand a row to another role.
 *
 * What agents get no privilege on: the journal (its before/after images hold any owner's rows)
 * and the agent credentials (token hashes). An agent journals its changes through two functions
 * that check every image's owner before they write (pg-agent-journal-ddl.ts). Shared tables
 * without owners (meta, profiles, belief dimensions and aliases, nooa's maintenance log) are
 * readable and writable, as shared memories are.
 *
 * Operators: the role that owns the schema's tables (the one that made the store) is not subject
 * to the policies (row-level security is enabled, not forced), nor is a superuser or a role with
 * BYPASSRLS. That is who copies stores, grants agents and runs the workbench over everyone.
 */
import { randomBytes } from 'node:crypto';
import { badInput, MnemoError } from '../../errors.js';
import { validateOwner } from '../../model/owner.js';
import { PROGRESS_TABLE } from '../copy/copy-endpoint.js';
import { agentJournalDdl } from './pg-agent-journal-ddl.js';
import { PG_FEED_TABLE } from './pg-feed-ddl.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { ident, parsePgStoreUrl, storeUrlAs } from './pg-url.js';
import { SyncPg } from './sync-pg.js';

/** Maps each agent's database role to its owner; the policies read it through mnemo_agent_role(). */
export const AGENTS_TABLE = 'mnemo_pg_agents';

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
}

const PASSWORD_MAX = 1000;

/** Tables whose rows the policies filter, with the condition a row must meet (for reads and for writes). */
function policies(t: (name: string) => string, fn: (name: string) => string): Record<string, string> {
  const memoryVisible = (column: string) => `EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.id = ${column})`;
  return {
    memories: `${fn('mnemo_owner_in_scope')}(owner)`,
    memory_edges: memoryVisible('src'),
    mnemo_access_events: memoryVisible('memory_id'),
    mnemo_tombstones: `${fn('mnemo_owner_in_scope')}(owner)`,
    mnemo_deltas: `memory_id IS NULL OR ${memoryVisible('memory_id')}`,
    mnemo_feed: `CASE WHEN owner IS NOT NULL THEN ${fn('mnemo_owner_in_scope')}(owner) ELSE ${memoryVisible('memory_id')} END`,
    // By the owner its trigger recorded, so an agent hears the delete of a memory it could see.
    [PG_FEED_TABLE]: `owner IS NOT NULL AND ${fn('mnemo_owner_in_scope')}(owner)`,
    [AGENTS_TABLE]: 'db_role = current_user',
  };
}

const READ_WRITE = ['memories', 'memory_edges', 'mnemo_access_events', 'mnemo_tombstones', 'mnemo_deltas', 'mnemo_dimensions', 'mnemo_entity_aliases', 'mnemo_alias_rejections', 'maintenance_log', 'mnemo_meta', 'mnemo_profiles'];
const READ_APPEND = ['mnemo_feed'];
/** PostgreSQL's change feed is read only: its triggers write it with the table owner's rights (pg-feed-ddl.ts). */
const READ_ONLY = [PG_STORE_TABLE, AGENTS_TABLE, PG_FEED_TABLE];
/** Enabled with no policy: nobody but operators sees a row. */
const CLOSED = ['mnemo_journal', 'mnemo_journal_rows', 'mnemo_agent_credentials'];

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
    const fn = (name: string) => `${s}.${ident(name)}`;
    const present = new Set(db.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1', [url.schema]).map((r) => r.name));
    if (!present.has(PG_STORE_TABLE)) throw new MnemoError('not_found', `${url.shown} holds no store; copy one into it first (mnemo copy <store> ${url.shown})`, { schema: url.schema });
    if (present.has(PROGRESS_TABLE)) throw new MnemoError('conflict', `${url.shown} holds an unfinished copy; finish it (mnemo copy … --resume) first`, { schema: url.schema });
    let existed = false;
    db.transaction(() => {
      db.query(`CREATE TABLE IF NOT EXISTS ${t(AGENTS_TABLE)} (db_role text COLLATE "C" PRIMARY KEY, owner text COLLATE "C" NOT NULL)`);
      db.query(`CREATE OR REPLACE FUNCTION ${fn('mnemo_agent_role')}() RETURNS text LANGUAGE sql STABLE AS $$ SELECT split_part(owner, '@', 1) FROM ${t(AGENTS_TABLE)} WHERE db_role = current_user $$`);
      db.query(
        `CREATE OR REPLACE FUNCTION ${fn('mnemo_owner_in_scope')}(o text) RETURNS boolean LANGUAGE sql STABLE AS $$
           SELECT o COLLATE "C" = '' OR o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A')
           FROM (SELECT ${fn('mnemo_agent_role')}() COLLATE "C" AS r) agent $$`,
      );
      // A store from before the change feed has no feed table (its first writable open adds it).
      for (const [table, condition] of Object.entries(policies(t, fn)).filter(([table]) => table !== PG_FEED_TABLE || present.has(table))) {
        db.query(`ALTER TABLE ${t(table)} ENABLE ROW LEVEL SECURITY`);
        db.query(`DROP POLICY IF EXISTS mnemo_agent ON ${t(table)}`);
        db.query(`CREATE POLICY mnemo_agent ON ${t(table)} FOR ALL USING (${condition}) WITH CHECK (${condition})`);
      }
      for (const table of CLOSED) db.query(`ALTER TABLE ${t(table)} ENABLE ROW LEVEL SECURITY`);
      existed = db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]).length > 0;
      const [statement] = db.query<{ sql: string }>(`SELECT format('${existed ? 'ALTER' : 'CREATE'} ROLE %I WITH LOGIN PASSWORD %L', $1::text, $2::text) AS sql`, [role, password]);
      db.query(statement!.sql);
      const r = ident(role);
      db.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
      db.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${READ_WRITE.map(t).join(', ')} TO ${r}`);
      db.query(`GRANT SELECT, INSERT ON ${READ_APPEND.map(t).join(', ')} TO ${r}`);
      db.query(`GRANT SELECT ON ${READ_ONLY.filter((table) => table !== PG_FEED_TABLE || present.has(table)).map(t).join(', ')} TO ${r}`);
      db.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
      for (const statement of agentJournalDdl(t, r, present.has(PG_FEED_TABLE))) db.query(statement);
      db.query(`INSERT INTO ${t(AGENTS_TABLE)}(db_role, owner) VALUES ($1, $2) ON CONFLICT (db_role) DO UPDATE SET owner = excluded.owner`, [role, owner]);
    });
    return { owner, role, schema: url.schema, password: givenPassword === undefined ? password : null, url: storeUrlAs(url, role), existed };
  } finally {
    db.close();
  }
}
