/**
 * A PostgreSQL store's guards against its agents' roles, installed and brought up to date in one
 * place: the settings' checks and the run markers' table (pg-settings-ddl.ts) in every store, and,
 * once a store has agents, row-level security (pg-agent-privileges.ts), the write ledger
 * (pg-agent-writes-ddl.ts), the journal's door (pg-agent-journal-ddl.ts) and each agent's grants.
 *
 * `mnemo pg grant` installs them. A store made or granted by an older build gets them at the first
 * writable open by a role that may change the schema (the tables' owner): the level it holds is the
 * store fact `guard_ddl_level`, and an open below this build's level runs the statements again
 * (each replaces, or is skipped). The agents' roles an older build granted lose there what they may
 * no longer do (write settings, markers, other readers' access events, the belief tables). A role
 * that may not change the schema (an agent's) opens the store as it is.
 *
 * Markers of long changes an older build kept in `mnemo_meta` move to `mnemo_pg_runs`; in a store
 * that has agents, whose roles could write `mnemo_meta` then, a moved marker is set aside (not
 * trusted to roll anything back), with a warning saying what to do if a run of the operator's was
 * really cut short.
 */
import { MnemoError } from '../../errors.js';
import type { SyncPg } from './sync-pg.js';
import { agentJournalDdl, agentJournalGrants } from './pg-agent-journal-ddl.js';
import { AGENT_WRITES_TABLE, AGENTS_TABLE, agentGrantDdl, agentPolicyDdl, agentScopeFunctionsDdl, RUNS_TABLE } from './pg-agent-privileges.js';
import { agentWritesDdl } from './pg-agent-writes-ddl.js';
import { PG_FEED_TABLE } from './pg-feed-ddl.js';
import { knowRunsTable, RUN_KEYS } from './pg-run-markers.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { settingsDdl } from './pg-settings-ddl.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import { ident } from './pg-url.js';

/** 1: settings checked where written, run markers apart, agents' writes journalled or refused. */
export const GUARD_DDL_LEVEL = 1;
export const GUARD_DDL_LEVEL_FACT = 'guard_ddl_level';

/** SQLSTATE insufficient_privilege: not the tables' owner (an agent's role, a viewer). */
const NOT_ALLOWED = '42501';

/**
 * Installs the guards in `schema` on `db`, inside the caller's transaction; `withAgents` adds the
 * agents' part even before the first agent is recorded (a grant). Returns warnings for people.
 */
export function installGuards(db: SyncPg, schema: string, opts: { withAgents?: boolean } = {}): string[] {
  const s = ident(schema);
  const t = (name: string) => `${s}.${ident(name)}`;
  const warnings: string[] = [];
  // Two processes opening an old store at once would replace the same functions together ("tuple concurrently updated").
  db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mnemo_pg_guards:${schema}`]);
  for (const sql of settingsDdl(t)) db.query(sql);
  const agents = db.query<{ db_role: string }>(`SELECT a.db_role FROM ${t(AGENTS_TABLE)} a JOIN pg_roles r ON r.rolname = a.db_role ORDER BY a.db_role`).map((r) => r.db_role);
  const everHadAgents = agents.length > 0 || db.query(`SELECT 1 FROM ${t(AGENTS_TABLE)} LIMIT 1`).length > 0;
  warnings.push(...moveRunMarkers(db, t, everHadAgents));
  if (agents.length > 0 || opts.withAgents) {
    // The catalog, not information_schema: this is the owner, but say exactly which tables exist.
    const present = new Set(db.query<{ name: string }>(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`, [schema]).map((r) => r.name));
    const [owner] = db.query<{ oid: string }>(`SELECT c.relowner::bigint AS oid FROM pg_class c WHERE c.oid = $1::regclass`, [t('memories')]);
    const statements = [
      ...agentScopeFunctionsDdl(t),
      ...agentWritesDdl(t, Number(owner!.oid)),
      ...agentJournalDdl(t, present.has(PG_FEED_TABLE)),
      ...agentPolicyDdl(t, t, new Set([...present, AGENT_WRITES_TABLE])),
      ...agents.flatMap((role) => [...agentGrantDdl(t, t, s, ident(role), present), ...agentJournalGrants(t, ident(role), present.has(PG_FEED_TABLE))]),
    ];
    for (const sql of statements) db.query(sql);
  }
  db.query(`INSERT INTO ${t(PG_STORE_TABLE)}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [GUARD_DDL_LEVEL_FACT, String(GUARD_DDL_LEVEL)]);
  return warnings;
}

/** Moves markers an older build kept in `mnemo_meta` to the markers' table; with agents then, set aside. */
function moveRunMarkers(db: SyncPg, t: (name: string) => string, untrusted: boolean): string[] {
  const moved = db.query<{ key: string; value: string }>(`DELETE FROM ${t('mnemo_meta')} WHERE key = ANY($1::text[]) RETURNING key, value`, [RUN_KEYS]);
  const warnings: string[] = [];
  for (const m of moved) {
    db.query(`INSERT INTO ${t(RUNS_TABLE)}(key, value, writer) VALUES ($1, $2, ${untrusted ? 'NULL' : 'current_user'}) ON CONFLICT (key) DO NOTHING`, [m.key, m.value]);
    if (!untrusted) continue;
    warnings.push(
      `a run marker from before this upgrade (${m.key}: ${m.value.slice(0, 200)}) was set aside: agents' roles could write it then, so it is not trusted to roll anything back; if a run of yours was really cut short, undo its change with mnemo undo (the journal has it)`,
    );
  }
  return warnings;
}

/**
 * At a writable open: the guards of this build's level, unless the store holds them already or the
 * connected role may not change the schema (then the store is opened as it is).
 */
export function upgradePgGuards(conn: PgStoreConnection, warn: (message: string) => void): void {
  const db = conn.db();
  const level = () => Number(db.query<{ value: string }>(`SELECT value FROM ${conn.baseTable(PG_STORE_TABLE)} WHERE key = $1`, [GUARD_DDL_LEVEL_FACT])[0]?.value ?? 0);
  if (level() >= GUARD_DDL_LEVEL) return;
  // Only the tables' owner may: anyone else (an agent's role) would fail on the first statement.
  const [owns] = db.query<{ ok: boolean }>(`SELECT pg_has_role(current_user, c.relowner, 'USAGE') AS ok FROM pg_class c WHERE c.oid = $1::regclass`, [conn.baseTable('memories')]);
  if (owns?.ok !== true) return;
  try {
    const warnings = db.transaction(() => (level() >= GUARD_DDL_LEVEL ? [] : installGuards(db, conn.url.schema)));
    knowRunsTable(conn);
    for (const w of warnings) warn(w);
  } catch (err) {
    if ((err as MnemoError).details?.['sqlstate'] !== NOT_ALLOWED) throw err;
  }
}
