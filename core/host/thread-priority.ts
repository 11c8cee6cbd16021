/**
 * Long work yields the CPU to the threads people and agents wait on. On Linux a thread's nice value
 * is its own (setpriority(2) on "process" 0 changes only the calling thread), and threads it starts
 * inherit it, so a jobs-lane worker that lowers its own priority also lowers the neighbour join's
 * threads it starts. Elsewhere the same call would lower the whole process, the serving thread
 * included, so there it is not made.
 */
import { getPriority, setPriority } from 'node:os';
import { z } from 'zod';
import { badInput } from '../errors.js';

/** The nice value the jobs lane runs at unless told otherwise (0 to 19; 0 leaves it as it is). */
export const DEFAULT_JOBS_NICE = 10;

/**
 * `mnemo mcp`'s: its long work is an agent's own reflect beside agents that recall, and there the
 * whole pass disturbs them, not the share of CPU it takes. At 20k beside eight agents recalling
 * without pause (docs/benchmarks/responsiveness.md, 2026-12-06 23:43 to 23:51): at nice 10 the pass took
 * 273.8 s and the agents' p99 was 254.1 ms (144 recalls over 300 ms); at nice 5, 119.9 s and
 * 214.7 ms (36); at nice 0, 73.8 s and 197.0 ms (15), for a p50 of 45.3 against 39.0 ms. At 100k
 * and nice 10 the pass did not finish in an hour.
 */
export const AGENT_HOST_JOBS_NICE = 0;

const NICE = z.coerce.number().int().min(0).max(19);

/** MNEMO_JOBS_NICE, or `unset` when it is unset or empty; a bad value is refused at start, by name. */
export function jobsNiceFromEnv(env: NodeJS.ProcessEnv = process.env, unset = DEFAULT_JOBS_NICE): number {
  const raw = (env['MNEMO_JOBS_NICE'] ?? '').trim();
  if (raw === '') return unset;
  const parsed = NICE.safeParse(raw);
  if (!parsed.success) {
    throw badInput(`MNEMO_JOBS_NICE must be a whole number from 0 to 19 (got ${JSON.stringify(raw.slice(0, 40))}); 0 runs long work at the same priority as the calls people and agents wait on`, { variable: 'MNEMO_JOBS_NICE' });
  }
  return parsed.data;
}

export type PriorityOutcome = { lowered: true; nice: number } | { lowered: false; reason: string };

export function lowerThisThreadPriority(nice: number, platform: NodeJS.Platform = process.platform): PriorityOutcome {
  if (nice <= 0) return { lowered: false, reason: 'not asked' };
  if (platform !== 'linux') return { lowered: false, reason: `${platform} sets priority per process, not per thread` };
  try {
    // Never raise it: an unprivileged thread may not, and a process started with `nice` keeps its choice.
    const target = Math.min(19, Math.max(getPriority(0), nice));
    setPriority(0, target);
    return { lowered: true, nice: target };
  } catch (err) {
    return { lowered: false, reason: (err as Error).message };
  }
}
