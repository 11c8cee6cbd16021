/**
 * `--replica <postgres-url>` (repeatable), taken by every command that reads a PostgreSQL store:
 * streaming standbys of its primary to read from (docs/postgres.md, "Replicas"). Without it,
 * MNEMO_PG_REPLICAS (comma-separated) is read when the store opens.
 */
import { strs, type CommandContext, type OptionSpec } from './command.js';

export const REPLICA_OPTION: OptionSpec = { replica: { type: 'string', multiple: true } };

export const REPLICA_USAGE = '[--replica URL]...';

/** The engine options --replica gives (none when absent: the store then reads MNEMO_PG_REPLICAS). */
export function replicaOptions(ctx: Pick<CommandContext, 'values'>): { replicas?: string[] } {
  const replicas = strs(ctx as CommandContext, 'replica');
  return replicas.length > 0 ? { replicas } : {};
}
