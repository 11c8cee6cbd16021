/**
 * The input schemas of the memory methods (add, update, list and the patch a merge takes): the
 * editable fields with their ranges and labels. Not a prefix file: it declares no method.
 */
import { z } from 'zod';
import { EDGE_TYPES, MEMORY_TYPES, REF_KINDS, TODO_STATUSES } from '../../../model/enums.js';
import { epochSeconds, LIMITS, withinShape } from '../../../model/limits.js';
import { finiteNumber, idField, ownerField } from './fields.js';

const ladderOr = (name: string, lo: number, hi: number) =>
  z.union([
    finiteNumber.refine((v) => v >= lo && v <= hi, `${name} must be within [${lo}, ${hi}]`),
    z.string().min(1, `${name} label is empty`),
  ]);

export const memoryRefInput = z.object({
  kind: z.enum(REF_KINDS),
  key: z.string().min(1, 'reference key is required').max(LIMITS.maxStringChars),
  preview: z.string().max(LIMITS.maxStringChars).nullable().optional(),
  captured_at: epochSeconds('captured_at').optional(),
});

// Open-ended like nooa's dict, but within the shape limits, with a time that can be formatted.
export const triggerInput = withinShape(
  z
    .object({
      kind: z.enum(['time', 'cue', 'event']),
      cue: z.string().max(LIMITS.maxStringChars).nullable().optional(),
      fire_at: epochSeconds('fire_at').nullable().optional(),
    })
    .loose(),
);

export const memoryFieldsInput = {
  title: z.string().max(10_000).nullable().optional(),
  type: z.enum(MEMORY_TYPES).optional(),
  owner: ownerField.optional(),
  importance: ladderOr('importance', 0, 10).optional(),
  salience: ladderOr('salience', 0, 1).optional(),
  confidence: ladderOr('confidence', 0, 1).optional(),
  mood: z.string().max(LIMITS.maxStringChars).nullable().optional(),
  tags: z.array(z.string().min(1, 'tags cannot be empty strings').max(200)).max(200).optional(),
  entities: z.array(z.string().min(1, 'entities cannot be empty strings').max(200)).max(200).optional(),
  place_or_task: z.string().max(LIMITS.maxStringChars).nullable().optional(),
  status: z.enum(TODO_STATUSES).nullable().optional(),
  references: z.array(memoryRefInput).max(50).optional(),
  trigger: triggerInput.nullable().optional(),
  valid_from: epochSeconds('valid_from').nullable().optional(),
  valid_to: epochSeconds('valid_to').nullable().optional(),
  source_task_ref: z.string().max(LIMITS.maxStringChars).nullable().optional(),
};

export const memoryAddInput = z.object({
  content: z.string().min(1, 'content is required').max(LIMITS.maxContentChars),
  ...memoryFieldsInput,
  id: z.string().regex(/^[0-9a-zA-Z-]{6,64}$/, 'id must be 6-64 letters, digits or dashes').optional(),
  created_at: epochSeconds('created_at').optional(),
  edges: z
    .array(z.object({ target_id: idField, type: z.enum(EDGE_TYPES), weight: finiteNumber.min(0).max(1).optional() }))
    .max(200)
    .optional(),
});

export const memoryPatchInput = z
  .object({ content: z.string().min(1, 'content cannot be empty').max(LIMITS.maxContentChars).optional(), ...memoryFieldsInput })
  .strict();

export const SORT_FIELDS = ['created_at', 'last_accessed', 'importance', 'salience', 'strength', 'access_count', 'type', 'owner', 'rowid'] as const;

/** A half-open range [min, max) of a number; either end may be left out. */
export const numRangeInput = z
  .object({ min: finiteNumber.nullable().optional(), max: finiteNumber.nullable().optional() })
  .refine((r) => r.min === undefined || r.min === null || r.max === undefined || r.max === null || r.min <= r.max, 'range min must not exceed max');

export const memoryListInput = z.object({
  types: z.array(z.enum(MEMORY_TYPES)).optional(),
  owner: z.string().optional(),
  owners: z.array(z.string()).optional(),
  statuses: z.array(z.enum(TODO_STATUSES)).optional(),
  archived: z.enum(['live', 'archived', 'all']).optional().default('live'),
  text: z.string().max(500).optional(),
  tags: z.array(z.string()).optional(),
  ids: z.array(idField).max(10_000).optional(),
  /** Memories with an edge (out or in) of one of these types. */
  edge_types: z.array(z.enum(EDGE_TYPES)).optional(),
  /** Retention now (the forgetting curve, 0–1) in [min, max). */
  retention: numRangeInput.optional(),
  importance: numRangeInput.optional(),
  /** Seconds since the last access, in [min, max). */
  idle: numRangeInput.optional(),
  sort: z.enum(SORT_FIELDS).optional().default('rowid'),
  dir: z.enum(['asc', 'desc']).optional().default('asc'),
  offset: z.number().int().min(0).optional().default(0),
  limit: z.number().int().min(1).max(5000).optional().default(200),
});
