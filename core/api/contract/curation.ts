/** Curation helpers that read: the near-duplicate finder. */
import { z } from 'zod';
import type { DuplicatePage } from '../../engine/duplicates.js';
import { method } from '../define.js';

export type { DuplicateGroup, DuplicateMember, DuplicatePage } from '../../engine/duplicates.js';

export const curationContract = {
  'curation.duplicates': method<DuplicatePage>()({
    description:
      'Groups of live memories with the same text once case, punctuation and spacing are ignored (largest first, paged), each with its owners and the survivor a merge would keep.',
    input: z
      .object({
        owner: z.string().max(200).optional(),
        same_owner: z.boolean().optional().default(false),
        dismissed: z.array(z.string().regex(/^[0-9a-f]{16}$/, 'a dismissed group key is 16 hex digits')).max(10_000).optional().default([]),
        offset: z.number().int().min(0).optional().default(0),
        limit: z.number().int().min(1).max(500).optional().default(50),
      })
      .optional()
      .default({ same_owner: false, dismissed: [], offset: 0, limit: 50 }),
  }),
};
