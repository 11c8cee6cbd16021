/**
 * A recall request as every door states it, checked once: the query, k within [1, 1000], hops
 * within [0, 4], an owner scope (`*`/absent = everyone, `role`, `role@inst`) and the profile (built
 * in or saved in the store; an unknown name is a bad_input listing the store's profiles).
 */
import type { EngineReader } from '../engine/engine.js';
import { badInput } from '../errors.js';
import { parseOwnerScope, type OwnerScope } from '../model/owner.js';
import type { RecallProfile, SupersededPolicy } from './profile.js';
import { profileOf } from './saved-profiles.js';
import type { RecallProfileName } from './types.js';

export const MAX_K = 1000;
export const MAX_HOPS = 4;

export interface RecallInput {
  query: string;
  k?: number | undefined;
  hops?: number | undefined;
  owner?: string | null | undefined;
  profile?: RecallProfileName | undefined;
  /** Rank superseded memories as any other (marked), whatever the profile's `superseded` says. */
  include_superseded?: boolean | undefined;
}

export interface ResolvedRequest {
  query: string;
  k: number;
  hops: number;
  owner: OwnerScope;
  profile: RecallProfile;
  /** The profile's policy for superseded memories, or `include` when the request asked for them. */
  superseded: SupersededPolicy;
}

export function resolveRequest(engine: EngineReader, input: RecallInput, defaults: { k: number; hops?: number }): ResolvedRequest {
  if (typeof input.query !== 'string') throw badInput('query must be a string', { field: 'query' });
  const k = input.k ?? defaults.k;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) {
    throw badInput(`k must be an integer within [1, ${MAX_K}], got ${JSON.stringify(input.k)}`, { field: 'k' });
  }
  const profile = profileOf(engine, input.profile);
  const hops = input.hops ?? defaults.hops ?? profile.knobs.hops;
  if (!Number.isInteger(hops) || hops < 0 || hops > MAX_HOPS) {
    throw badInput(`hops must be an integer within [0, ${MAX_HOPS}], got ${JSON.stringify(input.hops)}`, { field: 'hops' });
  }
  return { query: input.query, k, hops, owner: parseOwnerScope(input.owner), profile, superseded: input.include_superseded ? 'include' : profile.features.superseded };
}
