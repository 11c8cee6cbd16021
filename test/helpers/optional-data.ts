/**
 * Data sets that cannot be committed (LoCoMo is CC BY-NC) are read only from a path given in an
 * environment variable. A test that needs one skips with this reason when it is not given, and
 * the skip summary printed at the end of `npm test` lists it.
 */
import { existsSync } from 'node:fs';

export interface OptionalData {
  /** The file, when the variable names one that exists. */
  path: string | null;
  /** Why a test that needs it was skipped (shown by the skip summary). */
  missing: string;
}

export function optionalData(envVar: string, what: string, env: Record<string, string | undefined> = process.env): OptionalData {
  const given = env[envVar];
  const path = given && existsSync(given) ? given : null;
  const missing = given ? `${what}: ${envVar} names a file that does not exist` : `${what} is not part of the repository; set ${envVar} to its path to run this`;
  return { path, missing };
}

/** LoCoMo's locomo10.json (CC BY-NC 4.0, from snap-research/locomo). */
export const LOCOMO_ENV = 'MNEMO_LOCOMO_DATA';
export const locomoData = (env: Record<string, string | undefined> = process.env) => optionalData(LOCOMO_ENV, 'LoCoMo (locomo10.json, CC BY-NC)', env);

/** The belief-stream dev set (a directory with observations.jsonl, queries.jsonl, truth.jsonl), not ours to commit. */
export const BELIEF_STREAM_DEV_ENV = 'MNEMO_BELIEF_STREAM_DEV';
export const beliefStreamDev = (env: Record<string, string | undefined> = process.env) => optionalData(BELIEF_STREAM_DEV_ENV, 'the belief-stream dev set (a directory)', env);
