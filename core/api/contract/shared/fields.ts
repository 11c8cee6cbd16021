/**
 * Schema pieces more than one prefix file of the contract uses: ids, owner scopes and the recall
 * knobs (k, hops). Not a prefix file: it declares no method.
 */
import { z } from 'zod';
import { CREDENTIAL_ID_PATTERN, LOCAL_CREDENTIAL } from '../../../model/agent-credential.js';

export const MAX_K = 1000;
export const MAX_HOPS = 4;

export const finiteNumber = z.number().refine(Number.isFinite, 'must be a finite number');

/**
 * An instant of the store's history (epoch seconds): the read shows the store as it stood then
 * (time travel over the change feed; an instant at or after the last change is the store as it is now).
 */
export const atField = z
  .number({ error: 'at must be an instant in epoch seconds' })
  .refine(Number.isFinite, 'at must be a finite number of epoch seconds')
  .refine((v) => v >= 0, 'at must be an instant after 1970 (epoch seconds ≥ 0)');

export const ownerField = z.string().max(200);

/**
 * A profile's name: built in (`nooa-0.0.9`, `mnemo`) or saved in the store. Only its form is checked
 * here; the handler resolves it against the store and answers an unknown name with a bad_input
 * listing the store's profiles.
 */
export const profileField = z
  .string({ error: 'profile must be a profile name' })
  .min(1, 'profile must be a profile name')
  .max(64, 'a profile name is at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a profile name has only letters, digits, ".", "_" or "-"');
export const idField = z.string().min(1, 'id is required').max(200);

/** Owner scope: absent, null or "*" = everyone; "role" = every instance of a role; "role@inst" = one instance. */
export const scopeField = z.string().max(200).nullable().optional();

export const queryField = z.string().max(20_000, 'query is longer than 20000 characters; shorten it');
export const kField = z
  .number({ error: 'k must be a number' })
  .int('k must be an integer')
  .min(1, 'k must be at least 1 (how many results to return)')
  .max(MAX_K, `k must be at most ${MAX_K}`);
export const hopsField = z
  .number({ error: 'hops must be a number' })
  .int('hops must be an integer')
  .min(0, 'hops must be at least 0 (0 = no spread)')
  .max(MAX_HOPS, `hops must be at most ${MAX_HOPS}`);

/** Whose accesses or changes an audit lists: one credential's (its id), or "local" for those made without one. */
const CREDENTIAL_FILTER_HELP = `credential is a credential id (12 hex digits, as "mnemo agents list" shows it) or "${LOCAL_CREDENTIAL}" for what the workbench, the CLI and stdio agents did`;
export const credentialFilterField = z
  .string({ error: CREDENTIAL_FILTER_HELP })
  .refine((v) => v === LOCAL_CREDENTIAL || CREDENTIAL_ID_PATTERN.test(v), { error: CREDENTIAL_FILTER_HELP });
