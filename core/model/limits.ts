/**
 * The one set of limits every door enforces (API, MCP, import) and every reader checks on rows
 * another writer made. A value outside them is refused at the door and skipped (with a warning)
 * when it is already in a store, so one hostile record can never break the store for everyone.
 *
 * Why these numbers:
 * - depth 64: far beyond any record this engine writes (a memory with its access ring and score
 *   components is 5 deep), and far below the two hard walls: SQLite's JSON functions refuse
 *   documents nested deeper than 1000, and zod (recursive) overflows the stack near 2000.
 * - the numeric ranges are the API's own caps, so import cannot store what `memory.add` refuses.
 * - times are epoch seconds between 1970 and 9999: `new Date(t * 1000).toISOString()` throws
 *   outside roughly ±2.7e5 years, and every view formats times.
 */
import { z } from 'zod';

export const LIMITS = {
  /** Nesting of any JSON value accepted at a door or read from a row (objects and arrays). */
  maxDepth: 64,
  /** Keys of one JSON object (a trigger, an open-ended extra field). */
  maxObjectKeys: 1_000,
  /** Items of one JSON array. */
  maxArrayItems: 100_000,
  /** A memory's content (UTF-16 code units, as the API counts them). */
  maxContentChars: 1_000_000,
  /** Every other string field of a record (title, mood, a reference key, a log query). */
  maxStringChars: 100_000,
  /** Tags, entities, related files, references of one memory. */
  maxListItems: 1_000,
  /** Entries of one memory's access ring as imported (nooa keeps the last 64). */
  maxAccessLog: 10_000,
  /** Outgoing edges of one imported memory. */
  maxEdges: 10_000,
  /** One JSONL import line, before it is parsed. */
  maxImportLineChars: 16_000_000,
  importance: { min: 0, max: 10 },
  salience: { min: 0, max: 1 },
  confidence: { min: 0, max: 1 },
  /** Strength grows by one per reinforcing access. */
  strength: { min: 0, max: 1_000_000_000 },
  /** Counters (accesses, reinforcements, sizes). */
  count: { min: 0, max: Number.MAX_SAFE_INTEGER },
  /** Epoch seconds: 1970-01-01T00:00:00Z .. 9999-12-31T23:59:59Z. */
  epochSeconds: { min: 0, max: 253_402_300_799 },
} as const;

/** Keys that would reach an object's prototype when assigned (`obj[key] = v`) instead of a field. */
const PROTOTYPE_KEYS = new Set(['__proto__']);

export interface ShapeLimits {
  maxDepth?: number;
  maxObjectKeys?: number;
  maxArrayItems?: number;
  /** Longest string anywhere in the value (keys included). */
  maxStringChars?: number;
}

/**
 * What is wrong with the shape of a JSON value, or null: too deep, too many keys or items, a
 * string too long, a number that is not finite, or a `__proto__` key. Iterative (an explicit
 * stack), so a value nested 100,000 deep is measured without overflowing the call stack; it stops
 * at the first problem, so a hostile value costs no more than the part of it that was read.
 */
export function jsonShapeProblem(value: unknown, limits: ShapeLimits = {}): string | null {
  const maxDepth = limits.maxDepth ?? LIMITS.maxDepth;
  const maxKeys = limits.maxObjectKeys ?? LIMITS.maxObjectKeys;
  const maxItems = limits.maxArrayItems ?? LIMITS.maxArrayItems;
  const maxChars = limits.maxStringChars ?? Infinity;
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: '' }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    const at = shortPath(path);
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${at}: numbers must be finite`;
      continue;
    }
    if (typeof v === 'string') {
      if (v.length > maxChars) return `${at}: string longer than ${maxChars} characters`;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return `${at}: nested deeper than ${maxDepth} levels`;
    if (Array.isArray(v)) {
      if (v.length > maxItems) return `${at}: array longer than ${maxItems} items`;
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > maxKeys) return `${at}: object with more than ${maxKeys} keys`;
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (PROTOTYPE_KEYS.has(k)) return `${shortPath(path ? `${path}.${k}` : k)}: this key is not allowed`;
      if (k.length > maxChars) return `${at}: key longer than ${maxChars} characters`;
      stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, path: path ? `${path}.${k}` : k });
    }
  }
  return null;
}

/** A path for a message: a hostile value's path can be as long as the value is deep. */
function shortPath(path: string): string {
  if (!path) return '(input)';
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}

/** How deep a JSON value nests (0 for a scalar); iterative, like jsonShapeProblem. Stops counting at `cap`. */
export function jsonDepth(value: unknown, cap = Infinity): number {
  let deepest = 0;
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest >= cap) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return deepest;
}

/** A finite number within [min, max], named in the message. */
export function rangedNumber(name: string, range: { min: number; max: number }) {
  return z
    .number()
    .refine(Number.isFinite, `${name} must be a finite number`)
    .refine((v) => v >= range.min && v <= range.max, `${name} must be within [${range.min}, ${range.max}]`);
}

/** A whole number within [min, max]. */
export function rangedInt(name: string, range: { min: number; max: number }) {
  return z
    .number()
    .int(`${name} must be a whole number`)
    .refine((v) => v >= range.min && v <= range.max, `${name} must be within [${range.min}, ${range.max}]`);
}

export function isEpochSeconds(t: unknown): t is number {
  return typeof t === 'number' && Number.isFinite(t) && t >= LIMITS.epochSeconds.min && t <= LIMITS.epochSeconds.max;
}

/** Epoch seconds between 1970 and 9999 (every time a record carries). */
export function epochSeconds(name: string) {
  return z.number().refine(isEpochSeconds, `${name} must be epoch seconds between 1970 and 9999`);
}

/** Adds a shape check (depth, sizes, finite numbers, no `__proto__`) to a schema whose values zod does not walk. */
export function withinShape<T extends z.ZodType>(schema: T, limits: ShapeLimits = {}): T {
  return schema.superRefine((v, ctx) => {
    const problem = jsonShapeProblem(v, limits);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }) as unknown as T;
}
