/**
 * zod schemas for records as they are stored (lenient, like pydantic's lax mode: defaults fill
 * missing fields, ints and floats interchange) and for records as a caller submits them (strict).
 */
import { z } from 'zod';
import { ACCESS_CHANNELS, EDGE_TYPES, MEMORY_TYPES, REF_KINDS, TODO_STATUSES } from './enums.js';
import { ownerProblem } from './owner.js';

const num = z.number().refine(Number.isFinite, 'must be a finite number');
const nullableString = z.string().nullable().default(null);

export const accessComponentsSchema = z
  .object({
    source: z.string().default(''),
    cos: num.default(0),
    rel: num.default(0),
    rec: num.default(0),
    imp: num.default(0),
    spread: num.default(0),
  })
  .loose();

export const accessRecordSchema = z.object({
  ts: num,
  channel: z.enum(ACCESS_CHANNELS).default('recalled'),
  reader_owner: z.string().nullable().default('').transform((v) => v ?? ''),
  session_ref: nullableString,
  trace_ref: nullableString,
  query: nullableString,
  score: num.nullable().default(null),
  rank: z.number().int().nullable().default(null),
  components: accessComponentsSchema.nullable().default(null),
});

/** Pre-v2 logs hold bare floats; the validator turns them into `created` entries. */
export const storedAccessEntrySchema = z.union([
  num.transform((ts) => accessRecordSchema.parse({ ts, channel: 'created' })),
  accessRecordSchema,
]);

export const memoryRefSchema = z.object({
  kind: z.enum(REF_KINDS),
  key: z.string().min(1),
  preview: nullableString,
  captured_at: num,
});

export const edgeTypeSchema = z.enum(EDGE_TYPES);
export const memoryTypeSchema = z.enum(MEMORY_TYPES);
export const todoStatusSchema = z.enum(TODO_STATUSES);

export const ownerSchema = z.string().superRefine((v, ctx) => {
  const problem = ownerProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: `owner ${JSON.stringify(v)} ${problem}` });
});

export const edgeWeightSchema = num.refine((w) => w >= 0 && w <= 1, 'edge weight must be within [0, 1]');

/** The stored `data` payload, minus `edges` (which live in `memory_edges`). */
export const storedMemorySchema = z
  .object({
    id: z.string().min(1),
    type: memoryTypeSchema.default('info'),
    title: nullableString,
    content: z.string(),
    owner: z.string().default(''),
    size_chars: z.number().int().default(0),
    token_len: z.number().int().default(0),
    sentence_count: z.number().int().default(0),
    importance: num.default(5.0),
    salience: num.default(0.0),
    confidence: num.default(0.5),
    mood: nullableString,
    strength: z.number().int().default(1),
    reinforcement_count: z.number().int().default(0),
    created_at: num,
    last_accessed_at: num.optional(),
    access_log: z.array(storedAccessEntrySchema).default([]),
    access_count: z.number().int().default(0),
    recalled_count: z.number().int().default(0),
    searched_count: z.number().int().default(0),
    injected_count: z.number().int().default(0),
    reinforced_count: z.number().int().default(0),
    deref_count: z.number().int().default(0),
    source_task_ref: nullableString,
    related_files: z.array(z.string()).default([]),
    chat_turn_ref: nullableString,
    valid_from: num.nullable().default(null),
    valid_to: num.nullable().default(null),
    trigger: z.record(z.string(), z.unknown()).nullable().default(null),
    references: z.array(memoryRefSchema).default([]),
    tags: z.array(z.string()).default([]),
    entities: z.array(z.string()).default([]),
    place_or_task: nullableString,
    archived: z.boolean().default(false),
    status: z.string().nullable().default(null),
  })
  .loose();

/** Formats zod issues into one line that names each failing field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.length ? i.path.join('.') : '(input)';
      return `${path}: ${i.message}`;
    })
    .join('; ');
}
