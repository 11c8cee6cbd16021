/**
 * The conflict queue's inputs (`review.conflicts`, `review.conflictRecall`, `review.resolve`,
 * `review.flag`): what a page asks for and what a resolution names. Not a prefix file.
 */
import { z } from 'zod';
import { idField, kField, queryField, scopeField } from './fields.js';

const MAX_NOTE = 2_000;
const kinds = ['contradicts', 'value', 'belief'] as const;

export const conflictsInput = z
  .object({
    owner: scopeField,
    kinds: z.array(z.enum(kinds)).max(3).optional(),
    offset: z.number().int('offset must be a whole number').min(0).max(10_000_000).optional().default(0),
    limit: z.number().int('limit must be a whole number').min(1, 'limit must be at least 1').max(500, 'limit must be at most 500').optional().default(20),
  })
  .optional()
  .default({ offset: 0, limit: 20 });

export const conflictRecallInput = z.object({
  query: queryField.refine((q) => q.trim() !== '', 'query is empty'),
  ids: z.array(idField).min(1).max(2),
  owner: scopeField,
  k: kField.optional(),
});

const entityName = z.string().trim().min(1, 'entity is empty').max(1000);
const attributeName = z.string().trim().min(1, 'attribute is empty').max(1000);

export const resolutionInput = z.discriminatedUnion('do', [
  z.object({ do: z.literal('supersede'), current: idField, superseded: idField }).strict(),
  z.object({ do: z.literal('forget'), wrong: idField }).strict(),
  z.object({ do: z.literal('both_hold'), ids: z.tuple([idField, idField]) }).strict(),
  z.object({ do: z.literal('merge'), ids: z.tuple([idField, idField]), survivor: idField }).strict(),
  z.object({ do: z.literal('assert'), entity: entityName, attribute: attributeName, value: z.string().trim().min(1, 'value is empty').max(1000) }).strict(),
  z.object({ do: z.literal('reject'), delta_id: z.number().int().min(1) }).strict(),
]);

export const flagInput = z
  .object({
    a_id: idField,
    b_id: idField,
    note: z.string().max(MAX_NOTE, `a note is at most ${MAX_NOTE} characters`).optional().default(''),
  })
  .strict();
