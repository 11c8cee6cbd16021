/**
 * zod schemas for records as they are stored (lenient, like pydantic's lax mode: defaults fill
 * missing fields, ints and floats interchange) and for records as a caller submits them (strict).
 */
import { z } from 'zod';
import { ACCESS_CHANNELS, EDGE_TYPES, MEMORY_TYPES, REF_KINDS } from './enums.js';
import { epochSeconds, isEpochSeconds, LIMITS, rangedInt, rangedNumber, withinShape } from './limits.js';

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

// ------------------------------------------------------------------ bounded records (the doors)

const epoch = (name: string) => epochSeconds(name);
const text = z.string().max(LIMITS.maxStringChars);
const boundedNullableString = text.nullable().default(null);
const count = (name: string) => rangedInt(name, LIMITS.count).default(0);
const stringList = z.array(text).max(LIMITS.maxListItems).default([]);

/** A trigger dict: open-ended (nooa never reads it), but shaped within the limits and with usable times. */
export const boundedTriggerSchema = withinShape(z.record(z.string(), z.unknown())).superRefine((t, ctx) => {
  for (const key of ['fire_at', 'fired_at'] as const) {
    const v = t[key];
    if (v !== undefined && v !== null && !isEpochSeconds(v)) ctx.addIssue({ code: 'custom', path: [key], message: `${key} must be epoch seconds between 1970 and 9999` });
  }
});

export const boundedAccessRecordSchema = accessRecordSchema.extend({
  ts: epoch('ts'),
  reader_owner: text.nullable().default('').transform((v) => v ?? ''),
  session_ref: boundedNullableString,
  trace_ref: boundedNullableString,
  query: boundedNullableString,
});

export const boundedMemoryRefSchema = memoryRefSchema.extend({
  key: text.min(1),
  preview: boundedNullableString,
  captured_at: epoch('captured_at'),
});

/**
 * A record as another writer submits it (JSONL import): the stored schema with every limit applied,
 * so nothing enters a store through import that `memory.add` would refuse. Extra keys stay allowed
 * (nooa keeps unknown fields); their shape is checked on the whole line before this schema runs.
 */
export const boundedMemorySchema = storedMemorySchema.extend({
  id: z.string().min(1).max(200),
  title: boundedNullableString,
  content: z.string().max(LIMITS.maxContentChars, `content is longer than ${LIMITS.maxContentChars} characters`),
  owner: z.string().max(200).default(''),
  size_chars: count('size_chars'),
  token_len: count('token_len'),
  sentence_count: count('sentence_count'),
  importance: rangedNumber('importance', LIMITS.importance).default(5.0),
  salience: rangedNumber('salience', LIMITS.salience).default(0.0),
  confidence: rangedNumber('confidence', LIMITS.confidence).default(0.5),
  mood: boundedNullableString,
  strength: rangedInt('strength', LIMITS.strength).default(1),
  reinforcement_count: count('reinforcement_count'),
  created_at: epoch('created_at'),
  last_accessed_at: epoch('last_accessed_at').optional(),
  access_log: z
    .array(z.union([epoch('access_log ts').transform((ts) => accessRecordSchema.parse({ ts, channel: 'created' })), boundedAccessRecordSchema]))
    .max(LIMITS.maxAccessLog)
    .default([]),
  access_count: count('access_count'),
  recalled_count: count('recalled_count'),
  searched_count: count('searched_count'),
  injected_count: count('injected_count'),
  reinforced_count: count('reinforced_count'),
  deref_count: count('deref_count'),
  source_task_ref: boundedNullableString,
  related_files: stringList,
  chat_turn_ref: boundedNullableString,
  valid_from: epoch('valid_from').nullable().default(null),
  valid_to: epoch('valid_to').nullable().default(null),
  trigger: boundedTriggerSchema.nullable().default(null),
  references: z.array(boundedMemoryRefSchema).max(LIMITS.maxListItems).default([]),
  tags: stringList,
  entities: stringList,
  place_or_task: boundedNullableString,
  status: text.nullable().default(null),
});
