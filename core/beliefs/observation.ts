/**
 * The observation record and its validation. One zod schema serves the API, the CLI and JSONL
 * ingest; `parseObservationsJsonl` reports the first bad line by number and parses nothing further.
 */
import { z } from 'zod';
import { badInput } from '../errors.js';
import { describeIssues } from '../model/schemas.js';
import { OTHER } from './equations.js';
import { jsonlValues } from './jsonl-values.js';
import { isEpochSeconds } from '../model/limits.js';

/**
 * The longest entity or attribute name, in UTF-8 bytes. Names are index keys: PostgreSQL's btree
 * refuses an entry over 2704 bytes, and an entity and an attribute share one (the dimension's), so
 * two names at the bound fit with room. Bytes, not characters: 1000 characters of emoji are 4000
 * bytes, and failed there. The same bound on SQLite keeps every store copyable to PostgreSQL.
 */
export const MAX_NAME_BYTES = 1000;
// TextEncoder rather than Buffer: the API's contract (which uses this) also runs in the renderer.
const UTF8 = new TextEncoder();

/** Why `name` cannot be an entity's or attribute's name, or null when it can. */
export function nameBytesProblem(what: string, name: string): string | null {
  const bytes = UTF8.encode(name).length;
  return bytes > MAX_NAME_BYTES ? `${what} is ${bytes} bytes in UTF-8; the most is ${MAX_NAME_BYTES} (a name is an index key); shorten it` : null;
}

const nonEmpty = (name: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${name} is missing` : `${name} must be a string`) })
    .refine((s) => s.trim() !== '', `${name} is empty`)
    .refine((s) => s.length <= 1000, `${name} is longer than 1000 characters`);

/** An entity's or an attribute's name: also bounded in bytes (MAX_NAME_BYTES). */
const keyName = (name: string) => nonEmpty(name).superRefine((s, ctx) => {
  const problem = nameBytesProblem(name, s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const observationSchema = z.object({
  entity: keyName('entity'),
  attribute: keyName('attribute'),
  value: nonEmpty('value').refine((s) => s !== OTHER, `value ${OTHER} is reserved for "not yet observed"`),
  t: z
    .number({
      error: (iss) =>
        iss.input === undefined ? 't is missing' : typeof iss.input === 'number' ? 't must be a finite number (epoch seconds)' : 't must be a number (epoch seconds)',
    })
    .refine(Number.isFinite, 't must be a finite number (epoch seconds)')
    .refine(isEpochSeconds, 't must be epoch seconds between 1970 and 9999'),
  reliability: z
    .number({ error: 'reliability must be a number within [0, 1]' })
    .refine((r) => Number.isFinite(r) && r >= 0 && r <= 1, 'reliability must be within [0, 1]')
    .nullable()
    .optional(),
  evidence: z.string().max(100_000, 'evidence is longer than 100000 characters').optional(),
  source: z.string().max(1000).optional(),
  memory_id: z.string().min(1, 'memory_id is empty').max(200).nullable().optional(),
  id: z.string().max(200).nullable().optional(),
});

export type ObservationInput = z.input<typeof observationSchema>;

export interface Observation {
  entity: string;
  attribute: string;
  value: string;
  t: number;
  reliability: number | null;
  evidence: string;
  source: string;
  memory_id: string | null;
  id: string | null;
  /** 1-based line in the file it came from (or the position in a list). */
  line: number;
}

export function toObservation(d: z.output<typeof observationSchema>, line: number): Observation {
  return {
    entity: d.entity.trim(),
    attribute: d.attribute.trim(),
    value: d.value.trim(),
    t: d.t,
    reliability: d.reliability ?? null,
    evidence: d.evidence ?? '',
    source: d.source ?? '',
    memory_id: d.memory_id ?? null,
    id: d.id ?? null,
    line,
  };
}

/** Validates one observation; `where` names it in the error ("line 7"). */
export function parseObservation(raw: unknown, where: string, line: number): Observation {
  const r = observationSchema.safeParse(raw);
  if (!r.success) throw badInput(`${where}: ${describeIssues(r.error)}; nothing was ingested`, { line });
  return toObservation(r.data, line);
}

/** Parses JSONL text: blank lines are skipped, the first bad line fails the whole batch. */
export function parseObservationsJsonl(text: string): Observation[] {
  const out: Observation[] = [];
  for (const { json, line } of jsonlValues(text, '; nothing was ingested')) {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw badInput(`line ${line}: expected an object {entity, attribute, value, t, reliability, …}; nothing was ingested`, { line });
    }
    out.push(parseObservation(json, `line ${line}`, line));
  }
  return out;
}
