/**
 * The engine on an agent's database role reads what the role may read (pg-agent-privileges.ts):
 * memories through `mnemo_agent_memories`, whose `data` shows another reader's ring entries as
 * their time and channel only (pg-agent-rings-ddl.ts), and no before-image of the change feed.
 * So every view the engine builds on that role (memory detail, usage, export, recall's reads, the
 * MCP tools) shows what raw SQL on the role would, and nothing of another reader's accesses.
 *
 * What needs the whole rows of the past, time travel and the diff between two instants, is an
 * operator's: refused here on an agent's role with a typed error before anything is read.
 */
import { MnemoError } from '../../errors.js';
import { AGENT_MEMORIES_VIEW } from './pg-agent-privileges.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** SQL: whether the connected role may read `data` of the table the parameter `param` names whole (an operator), or not (an agent's role). */
export function wholeRowsSql(param: string): string {
  return `has_column_privilege(${param}, 'data', 'SELECT')`;
}

/** Whether the connected role may read `memories.data` whole (asked where reads go: a replica holds the same grants). */
export function readsWholeRows(conn: PgStoreConnection): boolean {
  const [r] = conn.read().query<{ whole: boolean }>(`SELECT ${wholeRowsSql('$1')} AS whole`, [conn.baseTable('memories')]);
  return r!.whole;
}

/** From now on, reads of memories on this connection go through the agents' view. */
export function readAsAgent(conn: PgStoreConnection): void {
  conn.readThrough('memories', AGENT_MEMORIES_VIEW);
}

/** The refusal of `what` (a reading of the past) on an agent's role: the feed's images hold every reader's ring. */
export function pastRefused(what: string): MnemoError {
  return new MnemoError(
    'permission',
    `an agent's database role cannot ${what}: the store's past rows hold every reader's accesses (nooa's ring, with each reader's queries), which only an operator reads; ask an operator, or read the store as it is now`,
    { operation: what },
  );
}

/** Refuses `what` on a connection whose role may not read whole rows (asked of the server). */
export function refusePastToAgents(conn: PgStoreConnection, what: string): void {
  if (!readsWholeRows(conn)) throw pastRefused(what);
}
