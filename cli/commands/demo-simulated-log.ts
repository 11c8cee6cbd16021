/**
 * `mnemo demo <db> --simulated-log`: a store whose access log a simulated agent wrote with a taste
 * the user chooses (core/demo/simulated-sessions.ts), so that `mnemo tune log` can be tried, and its
 * recovery checked, on a log whose true knobs are known (docs/tuning.md § Recovery).
 *
 * The store is written beside its final path and renamed into place once complete, so a refused or
 * failed run leaves nothing at `<db>`.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeSimulatedLog } from '../../core/demo/simulated-sessions.js';
import { badInput } from '../../core/errors.js';
import { describeIssues } from '../../core/model/schemas.js';
import { weightsSchema } from '../../core/recall/profile-schema.js';
import type { RecallWeights } from '../../core/recall/profile.js';
import { intOpt, strs, type CommandContext } from '../command.js';

const WEIGHT_NAMES = Object.keys(weightsSchema.shape) as (keyof RecallWeights)[];
/** The recovery test's agent: it cares four times as much for recency as for importance. */
const DEFAULT_TRUTH: Partial<RecallWeights> = { recency: 2, importance: 0.5 };

/** `--weight name=value`, repeatable: the agent's weights on top of the mnemo profile. */
export function parseTruth(raw: string[]): Partial<RecallWeights> {
  if (raw.length === 0) return DEFAULT_TRUTH;
  const entries: Record<string, number> = {};
  for (const item of raw) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? item : item.slice(0, eq);
    if (!(WEIGHT_NAMES as string[]).includes(name)) {
      throw badInput(`--weight ${JSON.stringify(item)}: the weights are ${WEIGHT_NAMES.join(', ')}; give name=value, e.g. --weight recency=2`, { field: 'weight' });
    }
    if (Object.hasOwn(entries, name)) throw badInput(`--weight ${name} is given twice`, { field: 'weight' });
    const text = eq < 0 ? '' : item.slice(eq + 1).trim();
    entries[name] = text === '' ? Number.NaN : Number(text);
  }
  const parsed = weightsSchema.partial().safeParse(entries);
  if (!parsed.success) throw badInput(`--weight: ${describeIssues(parsed.error)}`, { field: 'weight' });
  return parsed.data;
}

export interface SimulatedLogReport {
  path: string;
  sessions: number;
  groups: number;
  members: number;
  seed: number;
  truth: Partial<RecallWeights>;
  start: number;
}

export function writeSimulatedLogCommand(ctx: CommandContext, db: string, seed: number): SimulatedLogReport {
  const groups = intOpt(ctx, 'groups', 48, [2, 5_000]);
  const members = intOpt(ctx, 'members', 5, [2, 50]);
  const truth = parseTruth(strs(ctx, 'weight'));
  if (db === ':memory:') throw badInput('--simulated-log writes a store file; give a path', { field: 'db' });
  if (existsSync(db)) throw badInput(`${db} already exists; --simulated-log writes a new store, so choose a new path`, { field: 'db' });
  const start = ctx.clock.now();
  const partial = `${db}.partial-${process.pid}`;
  try {
    const log = writeSimulatedLog({ path: partial, truth, groups, members, seed, start });
    renameSync(partial, db);
    return { path: db, sessions: log.sessions, groups, members, seed, truth, start };
  } finally {
    // The partial file and whatever was opened beside it (its WAL, the index sidecar and its parts folder), none of which belongs to <db>.
    const dir = dirname(partial);
    for (const name of readdirSync(dir)) if (name.startsWith(basename(partial))) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
