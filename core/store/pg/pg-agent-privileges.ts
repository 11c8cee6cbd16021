/**
 * What an agent's database role (pg-grant.ts) may do, table by table: the one table docs/postgres.md
 * ("Agents' roles: privileges table by table") states, and the statements that make it so.
 *
 * The privileges are granted to each agent's LOGIN role; row-level security then narrows every
 * table an agent may touch to its rows, with one policy per command:
 *
 * - reads see the role's own rows and shared ones (owner ''), as `ownerMatches` does at role scope;
 *   an edge needs both ends visible (a shared memory's edge to another owner's memory would name
 *   that memory's id); an access event needs the reader to be of the agent's role, so no agent reads
 *   another reader's queries;
 * - writes land inside the same scope (WITH CHECK), and an access event is written in the agent's
 *   role's name (or as a memory's 'created' entry, reader ''), under one of its role's credentials;
 * - store-wide tables (settings, saved profiles, beliefs, nooa's maintenance log, run markers) are
 *   read-only; the journal, its rows, credentials and the write ledger (pg-agent-writes-ddl.ts) are
 *   closed.
 *
 * Every write an agent's role makes to memories, edges and tombstones is also checked at commit
 * against the journal (pg-agent-writes-ddl.ts): a change the engine did not journal is refused,
 * access bookkeeping apart.
 */
import { PG_FEED_TABLE } from './pg-feed-ddl.js';
import { PG_STORE_TABLE } from './pg-schema.js';

/** Maps each agent's database role to its owner; the policies read it through mnemo_agent_role(). */
export const AGENTS_TABLE = 'mnemo_pg_agents';
/** The markers of long changes and belief ingests (pg-run-markers.ts): written by operators only. */
export const RUNS_TABLE = 'mnemo_pg_runs';
/** The ledger of rows agents wrote in open transactions (pg-agent-writes-ddl.ts). */
export const AGENT_WRITES_TABLE = 'mnemo_pg_agent_writes';

type Privilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';

export interface TablePrivileges {
  table: string;
  /** What an agent's role may do ([]: nothing). */
  privileges: Privilege[];
  /** The rows it reads (row-level security, FOR SELECT); absent: every row. */
  read?: string;
  /** The rows it may insert, update or delete, before and after (FOR INSERT/UPDATE/DELETE). */
  write?: string;
  /** Stricter than `write` for new rows only (FOR INSERT's WITH CHECK). */
  insert?: string;
  /** Row-level security on, whatever the grants: closed tables, and tables filtered above. */
  rls: boolean;
  /** Why, for the docs and for whoever reads the schema. */
  why: string;
}

/**
 * The table of privileges. `t` qualifies a table name, `fn` a function name (both schema-qualified);
 * `present` says which optional tables the schema has (the feed of an old store, say).
 */
export function agentPrivileges(t: (name: string) => string, fn: (name: string) => string): TablePrivileges[] {
  const inScope = (column: string) => `${fn('mnemo_owner_in_scope')}(${column})`;
  const visible = (column: string) => `EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.id = ${column})`;
  const ofRole = (column: string) => `${fn('mnemo_owner_of_role')}(${column})`;
  return [
    { table: 'memories', privileges: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], read: inScope('owner'), write: inScope('owner'), rls: true, why: "its role's rows and shared ones; every change journalled (checked at commit)" },
    { table: 'memory_edges', privileges: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], read: `${visible('src')} AND ${visible('dst')}`, write: `${visible('src')} AND ${visible('dst')}`, rls: true, why: "edges between memories it sees (an edge to another owner's memory would name it); every change journalled as its source memory's" },
    { table: 'mnemo_tombstones', privileges: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], read: inScope('owner'), write: inScope('owner'), rls: true, why: 'tombstones of its scope; every change journalled' },
    {
      table: 'mnemo_access_events',
      privileges: ['SELECT', 'INSERT'],
      read: `${ofRole('reader_owner')} AND ${visible('memory_id')}`,
      insert: `${visible('memory_id')} AND (${ofRole('reader_owner')} OR (reader_owner = '' AND channel = 'created' AND query IS NULL)) AND (credential_id IS NULL OR ${fn('mnemo_credential_of_role')}(credential_id))`,
      rls: true,
      why: "its role's own reads only (another reader's queries stay hidden); appends in its role's name, under its role's credentials; never updates or deletes one",
    },
    { table: 'mnemo_deltas', privileges: ['SELECT'], read: `memory_id IS NULL OR ${visible('memory_id')}`, rls: true, why: 'the belief log, read-only: deltas without a memory or of memories it sees' },
    { table: 'mnemo_feed', privileges: ['SELECT'], read: `CASE WHEN owner IS NOT NULL THEN ${inScope('owner')} ELSE ${visible('memory_id')} END`, rls: true, why: "SQLite's change feed as a copy carried it, read-only" },
    // By the owner its trigger recorded, so an agent hears the delete of a memory it could see.
    { table: PG_FEED_TABLE, privileges: ['SELECT'], read: `owner IS NOT NULL AND ${inScope('owner')}`, rls: true, why: 'the change feed, read-only (its triggers write it with the owner’s rights)' },
    { table: AGENTS_TABLE, privileges: ['SELECT'], read: 'db_role = current_user', rls: true, why: 'its own row (role → owner)' },
    ...['mnemo_meta', 'mnemo_profiles', 'mnemo_dimensions', 'mnemo_entity_aliases', 'mnemo_alias_rejections', 'maintenance_log', PG_STORE_TABLE, RUNS_TABLE].map(
      (table): TablePrivileges => ({ table, privileges: ['SELECT'], rls: false, why: 'store-wide: settings, saved profiles, beliefs, the maintenance log, the store’s facts and run markers, read-only' }),
    ),
    ...['mnemo_journal', 'mnemo_journal_rows', 'mnemo_agent_credentials', AGENT_WRITES_TABLE].map(
      (table): TablePrivileges => ({ table, privileges: [], rls: true, why: 'closed: journal images hold any owner’s rows, credentials are token hashes; changes go in through mnemo_agent_journal_write' }),
    ),
  ];
}

/** The functions the policies call: the agent's role, its owner scope, its role's credentials. */
export function agentScopeFunctionsDdl(t: (name: string) => string): string[] {
  return [
    `CREATE OR REPLACE FUNCTION ${t('mnemo_agent_role')}() RETURNS text LANGUAGE sql STABLE AS $$ SELECT split_part(owner, '@', 1) FROM ${t(AGENTS_TABLE)} WHERE db_role = current_user $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_owner_in_scope')}(o text) RETURNS boolean LANGUAGE sql STABLE AS $$
       SELECT o COLLATE "C" = '' OR o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A')
       FROM (SELECT ${t('mnemo_agent_role')}() COLLATE "C" AS r) agent $$`,
    // The owner rule for an explicit role (a definer cannot see the caller's current_user).
    `CREATE OR REPLACE FUNCTION ${t('mnemo_owner_in_role_scope')}(o text, r text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
       SELECT o IS NOT NULL AND (o COLLATE "C" = '' OR o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A')) $$`,
    // The role's own owners, without shared '': whose reads an agent may see or write.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_owner_in_role')}(o text, r text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
       SELECT o IS NOT NULL AND r IS NOT NULL AND (o COLLATE "C" = r OR (o COLLATE "C" >= r || '@' AND o COLLATE "C" < r || 'A')) $$`,
    `CREATE OR REPLACE FUNCTION ${t('mnemo_owner_of_role')}(o text) RETURNS boolean LANGUAGE sql STABLE AS $$ SELECT ${t('mnemo_owner_in_role')}(o, ${t('mnemo_agent_role')}()) $$`,
    // Credentials are closed to agents: a definer looks the id up, for the role the session logged in as.
    `CREATE OR REPLACE FUNCTION ${t('mnemo_credential_of_role')}(p_id text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
       SELECT EXISTS (SELECT 1 FROM ${t('mnemo_agent_credentials')} c JOIN ${t(AGENTS_TABLE)} a ON a.db_role = session_user
                      WHERE c.id = p_id AND ${t('mnemo_owner_in_role')}(c.owner, split_part(a.owner, '@', 1))) $$`,
  ];
}

/**
 * Row-level security as the table says: policies for every role but the tables' owner (and roles
 * with BYPASSRLS). The policies of earlier levels are dropped first. Tables the schema lacks
 * (`present`) are left out.
 */
export function agentPolicyDdl(t: (name: string) => string, fn: (name: string) => string, present: ReadonlySet<string>): string[] {
  const statements: string[] = [];
  for (const p of agentPrivileges(t, fn).filter((row) => present.has(row.table))) {
    const table = t(p.table);
    if (p.rls) statements.push(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
    for (const name of ['mnemo_agent', 'mnemo_agent_read', 'mnemo_agent_insert', 'mnemo_agent_update', 'mnemo_agent_delete']) statements.push(`DROP POLICY IF EXISTS ${name} ON ${table}`);
    if (p.read !== undefined) statements.push(`CREATE POLICY mnemo_agent_read ON ${table} FOR SELECT USING (${p.read})`);
    if (p.privileges.includes('INSERT')) statements.push(`CREATE POLICY mnemo_agent_insert ON ${table} FOR INSERT WITH CHECK (${p.insert ?? p.write ?? 'true'})`);
    if (p.privileges.includes('UPDATE')) statements.push(`CREATE POLICY mnemo_agent_update ON ${table} FOR UPDATE USING (${p.write ?? 'true'}) WITH CHECK (${p.write ?? 'true'})`);
    if (p.privileges.includes('DELETE')) statements.push(`CREATE POLICY mnemo_agent_delete ON ${table} FOR DELETE USING (${p.write ?? 'true'})`);
  }
  return statements;
}

/** The identity sequences agents draw from: the rows they insert, and the journal's ids (a change's id is drawn before its rows go in). */
const AGENT_SEQUENCES: readonly [table: string, column: string][] = [
  ['memories', 'rowid'],
  ['memory_edges', 'rowid'],
  ['mnemo_tombstones', 'rowid'],
  ['mnemo_access_events', 'id'],
  ['mnemo_journal', 'id'],
];

/**
 * An agent's role's grants, exactly the table's: everything it held in the schema is revoked first
 * (a role granted by an older build could write settings and markers), then granted again.
 * `schema` and `role` are quoted; the journal's door is granted with its functions (pg-agent-journal-ddl.ts).
 */
export function agentGrantDdl(t: (name: string) => string, fn: (name: string) => string, schema: string, role: string, present: ReadonlySet<string>): string[] {
  const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return [
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${role}`,
    `REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${schema} FROM ${role}`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    ...agentPrivileges(t, fn)
      .filter((p) => p.privileges.length > 0 && present.has(p.table))
      .map((p) => `GRANT ${p.privileges.join(', ')} ON ${t(p.table)} TO ${role}`),
    ...AGENT_SEQUENCES.map(([table, column]) => `DO $$ BEGIN EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %s', pg_get_serial_sequence(${literal(t(table))}, ${literal(column)}), ${literal(role)}); END $$`),
  ];
}
