import { z } from 'zod';
import { EDGE_TYPES, MEMORY_TYPES, REF_KINDS, TODO_STATUSES } from '../../model/enums.js';
import type { Memory } from '../../model/memory.js';
import { method } from '../define.js';
import { epochSeconds, LIMITS, withinShape } from '../../model/limits.js';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const ladderOr = (name: string, lo: number, hi: number) =>
  z.union([
    finite.refine((v) => v >= lo && v <= hi, `${name} must be within [${lo}, ${hi}]`),
    z.string().min(1, `${name} label is empty`),
  ]);

export const ownerField = z.string().max(200);
export const idField = z.string().min(1, 'id is required').max(200);

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
    .array(z.object({ target_id: idField, type: z.enum(EDGE_TYPES), weight: finite.min(0).max(1).optional() }))
    .max(200)
    .optional(),
});

export const memoryPatchInput = z
  .object({ content: z.string().min(1, 'content cannot be empty').max(LIMITS.maxContentChars).optional(), ...memoryFieldsInput })
  .strict();

export const SORT_FIELDS = ['created_at', 'last_accessed', 'importance', 'salience', 'strength', 'access_count', 'type', 'owner', 'rowid'] as const;

/** A half-open range [min, max) of a number; either end may be left out. */
export const numRangeInput = z
  .object({ min: finite.nullable().optional(), max: finite.nullable().optional() })
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

export interface MemorySummary {
  id: string;
  type: Memory['type'];
  title: string | null;
  head: string;
  owner: string;
  status: string | null;
  archived: boolean;
  importance: number;
  salience: number;
  strength: number;
  access_count: number;
  created_at: number;
  last_accessed_at: number;
  tags: string[];
}

export interface EdgeView {
  id: string;
  type: string;
  weight: number;
  created_at: number;
  head: string | null;
  memory_type: string | null;
  owner: string | null;
  archived: boolean | null;
  exists: boolean;
}

export interface MemoryDetail {
  memory: Memory;
  labels: { importance: string; salience: string; confidence: string };
  outgoing: EdgeView[];
  incoming: EdgeView[];
  has_embedding: boolean;
}

export const memoryContract = {
  'memory.list': method<{ total: number; rows: MemorySummary[] }>()({
    description: 'List memories with filters (type, owner scope, status, archived, text, tags), sorting and paging.',
    input: memoryListInput,
  }),
  'memory.get': method<MemoryDetail>()({
    description: 'One memory with every field, its verbal labels and its edges in and out.',
    input: z.object({ id: idField }),
  }),
  'memory.add': method<Memory>()({
    description: 'Add a memory (journalled).',
    input: memoryAddInput,
    mutates: true,
  }),
  'memory.update': method<{ memory: Memory; changed: string[]; change_id: number | null }>()({
    description: 'Change fields of a memory (journalled, undoable).',
    input: z.object({ id: idField, patch: memoryPatchInput }),
    mutates: true,
  }),
  'memory.archive': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Archive memories (soft delete; journalled).',
    input: z.object({ ids: z.array(idField).min(1, 'give at least one id').max(100_000) }),
    mutates: true,
  }),
  'memory.restore': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Restore archived memories (journalled).',
    input: z.object({ ids: z.array(idField).min(1, 'give at least one id').max(100_000) }),
    mutates: true,
  }),
  'edge.add': method<{ changed: boolean; change_id: number | null }>()({
    description: 'Add a typed edge src → dst (an existing edge keeps the larger weight).',
    input: z.object({ src: idField, dst: idField, type: z.enum(EDGE_TYPES), weight: finite.min(0).max(1).optional().default(1) }),
    mutates: true,
  }),
  'edge.addMany': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Link every source to one target with the same edge type, as one change that one undo takes back. Returns the sources whose edge was new or heavier.',
    input: z.object({
      srcs: z.array(idField).min(1, 'srcs needs at least one memory id').max(1000, 'srcs takes at most 1000 ids; link in batches'),
      dst: idField,
      type: z.enum(EDGE_TYPES),
      weight: finite.min(0).max(1).optional().default(1),
    }),
    mutates: true,
  }),
  'edge.remove': method<{ changed: boolean; change_id: number | null }>()({
    description: 'Remove a typed edge src → dst.',
    input: z.object({ src: idField, dst: idField, type: z.enum(EDGE_TYPES) }),
    mutates: true,
  }),
};
