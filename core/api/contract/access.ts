/**
 * The access audit: every logged access (the uncapped `mnemo_access_events` table, or the rings
 * on the records for a store that has none), replaying one against the store as it is now, and
 * the two touching channels that are not recall (`deref`, `reinforced`).
 */
import { z } from 'zod';
import { ACCESS_CHANNELS } from '../../model/enums.js';
import type { Memory } from '../../model/memory.js';
import { method } from '../define.js';
import type { AccessEventView, AccessListResult } from '../../observe/access-types.js';
import type { ComponentSnapshot, ReplayResult } from '../../recall/types.js';
import type { CredentialRef } from '../../model/agent-credential.js';
export type { AccessEventView, AccessListResult, ComponentSnapshot, ReplayResult };
import { atField, credentialFilterField, hopsField, kField, profileField, scopeField } from './shared/fields.js';

/** A credential as the audit's filter offers it (revoked ones too: their accesses stay in the log). */
export interface AuditCredential extends CredentialRef {
  revoked: boolean;
}

export const accessListInput = z.object({
  channels: z.array(z.enum(ACCESS_CHANNELS)).optional(),
  reader_owner: z.string().max(200).optional(),
  cross_owner_only: z.boolean().optional(),
  /** Substring of the logged query text. */
  query: z.string().max(500).optional(),
  memory_id: z.string().min(1).max(200).optional(),
  /** A credential id: only the accesses made with it; "local": only those made without one. */
  credential: credentialFilterField.optional(),
  since: z.number().optional(),
  until: z.number().optional(),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
  offset: z.number().int().min(0).optional().default(0),
  limit: z.number().int().min(1).max(5000).optional().default(100),
});

export const accessContract = {
  'access.list': method<AccessListResult>()({
    description: 'Logged accesses, newest first, filtered by channel, reader, cross-owner, query text, memory or credential ("local": made without one); paged. With `at`, those logged up to that instant.',
    input: accessListInput.extend({ at: atField.optional() }),
  }),
  'access.credentials': method<{ credentials: AuditCredential[] }>()({
    description: "The store's agent credentials, revoked ones too, oldest first: what the audit's credential filter offers.",
    input: z.object({}),
  }),
  'access.replay': method<ReplayResult>()({
    description:
      'Re-run a logged access against the store as it is now (or, with as_of_then, as it was just before the access was logged) and show how each component moved and whether the logged ranking is reproduced.',
    input: z.object({
      event_id: z.number().int().min(1, 'event_id is a row id of mnemo_access_events (≥ 1)'),
      /** Re-run against the store as it was just before the access was logged (time travel), at that access's clock. */
      as_of_then: z.boolean().optional().default(false),
      hops: hopsField.optional(),
      owner: scopeField,
      k: kField.optional(),
      /** Re-rank under another profile than the one logged (built in or saved). */
      profile: profileField.optional(),
    }),
  }),
  'access.deref': method<{ memory: Memory; logged: boolean }>()({
    description: 'Dereference a memory (`memory:<id>`): returns it and logs a touching `deref` access.',
    input: z.object({ id: z.string().min(1, 'id is required').max(200) }),
    mutates: true,
  }),
  'access.reinforce': method<{ memory: Memory; logged: boolean }>()({
    description: 'Reinforce a memory: logs a touching `reinforced` access (strength +1 unless bump is false).',
    input: z.object({ id: z.string().min(1, 'id is required').max(200), bump: z.boolean().optional().default(true) }),
    mutates: true,
  }),
};
