/**
 * JSONL import and export: one memory per line, with its edges and its access ring, in nooa's
 * own field names. An import is validated line by line before anything is written, then written
 * as one journalled change; any bad line rolls the whole import back and names the line.
 */
import { z } from 'zod';
import { badInput, MnemoError } from '../errors.js';
import { applyTodoRule, embeddingText, refreshDerivedSizes, type Memory } from '../model/memory.js';
import { boundedMemorySchema, describeIssues, edgeTypeSchema } from '../model/schemas.js';
import { epochSeconds, jsonShapeProblem, LIMITS } from '../model/limits.js';
import { ownerProblem } from '../model/owner.js';
import { blobToVector, decodeRow, vectorToBlob } from '../store/port/codec.js';
import type { Engine } from './engine.js';
import { recordRedactions, redactFields } from './redaction.js';
import { totalOf, type RedactionCounts } from '../model/redaction.js';
import { memoryEmbedding } from '../store/queries/memory-lookups.js';

/** A memory's redacted fields, its replacements added to `into`. */
function redactFieldsInto(engine: Engine, memory: Memory, into: RedactionCounts): Memory {
  const { fields, redacted } = redactFields(engine.store, memory);
  for (const [kind, n] of Object.entries(redacted.counts)) into[kind] = (into[kind] ?? 0) + n;
  return fields;
}

const edgeLineSchema = z.object({
  target_id: z.string().min(1).max(200),
  type: edgeTypeSchema,
  weight: z.number().min(0).max(1).default(1),
  created_at: epochSeconds('edge created_at').optional(),
});

// The same limits as the API's memory.add (see model/limits.ts): import is a door too.
const importLineSchema = boundedMemorySchema.extend({
  edges: z.array(edgeLineSchema).max(LIMITS.maxEdges).default([]),
  embedding: z.string().max(LIMITS.maxStringChars).optional(),
});

export interface ExportOptions {
  includeArchived?: boolean;
  withEmbeddings?: boolean;
}

export function* exportJsonl(engine: Engine, opts: ExportOptions = {}): Generator<string> {
  for (const m of engine.store.iter({ includeArchived: opts.includeArchived ?? true })) {
    const line: Record<string, unknown> = { ...m };
    delete line['extra'];
    if (m.extra) Object.assign(line, m.extra);
    if (opts.withEmbeddings) {
      const v = memoryEmbedding(engine.store, m.id);
      if (v) line['embedding'] = vectorToBlob(v).toString('base64');
    }
    yield JSON.stringify(line);
  }
}

export type ConflictPolicy = 'error' | 'skip' | 'replace';

export interface ImportResult {
  imported: number;
  skipped: number;
  change_id: number | null;
  /** What the store's redaction policy replaced in the imported memories, by kind (engine/redaction.ts); absent when nothing. */
  redacted?: RedactionCounts;
}

export async function importJsonl(
  engine: Engine,
  text: string,
  opts: { onConflict?: ConflictPolicy; onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportResult> {
  const policy = opts.onConflict ?? 'error';
  const lines = text.split('\n');
  const parsed: { line: number; memory: Memory; embedding: Float32Array | null }[] = [];
  const seen = new Set<string>();
  const redactions: RedactionCounts = {};
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const where = `line ${i + 1}`;
    if (raw.length > LIMITS.maxImportLineChars) {
      throw badInput(`import failed at ${where}: the line is longer than ${LIMITS.maxImportLineChars} characters; nothing was imported`, { line: i + 1 });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw badInput(`import failed at ${where}: not valid JSON (${(err as Error).message}); nothing was imported`, { line: i + 1 });
    }
    // Measured before zod, which walks values recursively and would overflow on a deep one.
    const shape = jsonShapeProblem(json);
    if (shape) throw badInput(`import failed at ${where}: ${shape}; nothing was imported`, { line: i + 1 });
    const r = importLineSchema.safeParse(json);
    if (!r.success) throw badInput(`import failed at ${where}: ${describeIssues(r.error)}; nothing was imported`, { line: i + 1 });
    const d = r.data;
    const problem = ownerProblem(d.owner);
    if (problem) throw badInput(`import failed at ${where}: owner ${JSON.stringify(d.owner)} ${problem}; nothing was imported`, { line: i + 1 });
    if (seen.has(d.id)) throw badInput(`import failed at ${where}: id ${d.id} appears twice in the file; nothing was imported`, { line: i + 1 });
    seen.add(d.id);
    const { edges, embedding, ...rest } = d;
    const { memory } = decodeRow(
      {
        id: d.id,
        type: d.type,
        content: d.content,
        importance: d.importance,
        salience: d.salience,
        strength: d.strength,
        created_at: d.created_at,
        last_accessed: d.last_accessed_at ?? d.created_at,
        access_count: d.access_count,
        archived: d.archived ? 1 : 0,
        owner: d.owner,
        status: d.status,
        data: JSON.stringify(rest),
      },
      edges.map((e) => ({ target_id: e.target_id, type: e.type, weight: e.weight, created_at: e.created_at ?? engine.now() })),
    );
    try {
      applyTodoRule(memory);
    } catch (err) {
      throw badInput(`import failed at ${where}: ${(err as Error).message}; nothing was imported`, { line: i + 1 });
    }
    // Secrets replaced before anything is written; an embedding made from the unredacted text is not kept.
    const before = totalOf(redactions);
    Object.assign(memory, redactFieldsInto(engine, memory, redactions));
    const redactedHere = totalOf(redactions) > before;
    if (redactedHere) refreshDerivedSizes(memory);
    let vec: Float32Array | null = null;
    if (embedding && !redactedHere) {
      vec = blobToVector(Buffer.from(embedding, 'base64'), engine.embedder.dim);
      if (!vec) throw badInput(`import failed at ${where}: embedding does not have ${engine.embedder.dim} dimensions; nothing was imported`, { line: i + 1 });
    }
    parsed.push({ line: i + 1, memory, embedding: vec });
  }
  const store = engine.store;
  for (const p of parsed) {
    for (const e of p.memory.edges) {
      if (!seen.has(e.target_id) && !store.exists(e.target_id)) {
        throw badInput(`import failed at line ${p.line}: edge to ${e.target_id} points at a memory that is neither in the file nor in the store; nothing was imported`, {
          line: p.line,
        });
      }
    }
    if (policy === 'error' && store.exists(p.memory.id)) {
      throw badInput(`import failed at line ${p.line}: memory ${p.memory.id} already exists (use --on-conflict skip or replace); nothing was imported`, {
        line: p.line,
      });
    }
  }
  // Embed outside the transaction (a model endpoint may be slow); the hashing embedder is instant.
  for (const p of parsed) if (!p.embedding) p.embedding = await engine.embed(embeddingText(p.memory));
  let skipped = 0;
  // The line being written: a value this store cannot keep (a NUL character in PostgreSQL text) is
  // refused as it is written, and the whole import rolls back; the error then names its line.
  let writing = 0;
  try {
    const { changeId } = store.change(`import ${parsed.length} memories`, 'import', () => {
      let done = 0;
      for (const p of parsed) {
        if (policy === 'skip' && store.exists(p.memory.id)) {
          skipped++;
          continue;
        }
        writing = p.line;
        store.add(p.memory, p.embedding);
        store.recordAccessEvents(p.memory.id, p.memory.access_log, null, { backfilled: true });
        if (++done % 1000 === 0) opts.onProgress?.(done, parsed.length);
      }
      recordRedactions(store, redactions);
    });
    return { imported: parsed.length - skipped, skipped, change_id: changeId, ...(totalOf(redactions) ? { redacted: redactions } : {}) };
  } catch (err) {
    if (err instanceof MnemoError && err.code === 'bad_input' && writing > 0) {
      throw badInput(`import failed at line ${writing}: ${err.message}; nothing was imported`, { ...err.details, line: writing });
    }
    throw err;
  }
}
