/**
 * Forgetting: retention now and over time, the prune guards, and pruning itself (dry run or
 * apply, journalled so it can be undone).
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { RetentionRow, CurveMarker, RetentionCurve, PruneResult } from '../../forget/types.js';
import type { AccessTally } from '../../forget/access-tally.js';
export type { RetentionRow, CurveMarker, RetentionCurve, PruneResult, AccessTally };
import { atField, scopeField } from './shared/fields.js';

export const retentionContract = {
  'retention.list': method<{ total: number; rows: RetentionRow[] }>()({
    description: 'Retention, protection, prune decision and prune ETA per memory, filtered and sorted.',
    input: z.object({
      owner: scopeField,
      include_archived: z.boolean().optional().default(false),
      only: z.enum(['all', 'should_prune', 'protected', 'unprotected']).optional().default('all'),
      sort: z.enum(['id', 'retention', 'prune_eta', 'rowid']).optional().default('id'),
      offset: z.number().int().min(0).optional().default(0),
      limit: z.number().int().min(1).max(1_000_000).optional().default(1000),
    }),
  }),
  'retention.curve': method<RetentionCurve>()({
    description: 'The forgetting curve of one memory: R(t) from creation to now + 90 days (or `until`), strength steps, prune threshold and ETA, and a marker per access; with `at`, as it stood at that instant.',
    input: z.object({
      id: z.string().min(1, 'id is required').max(200),
      until: z.number().optional(),
      samples: z.number().int().min(10).max(5000).optional().default(400),
      /** The curve as it stood at this instant (epoch seconds): the record then, the accesses logged up to it, "now" = the instant. */
      at: atField.optional(),
    }),
  }),
  'retention.prune': method<PruneResult>()({
    description: 'Prune what the forgetting policy says should go (archive by default). `apply: false` is a dry run.',
    input: z.object({
      apply: z.boolean().optional().default(false),
      owner: scopeField,
      action: z.enum(['archive', 'delete']).optional(),
    }),
    mutates: true,
  }),
};
