/**
 * Row ↔ Memory. `data` (nooa's JSON dump, edges excluded) is the source of truth except for the
 * promoted `archived`, `owner` and `status` columns, which override it on read exactly as nooa does.
 * A row whose `data` cannot be read is rebuilt from the promoted columns, with a warning, so one
 * damaged row never hides the rest of the store.
 */
import { storedMemorySchema } from '../../model/schemas.js';
import { DATA_FIELD_ORDER, createMemory, type AccessRecord, type Edge, type Memory } from '../../model/memory.js';
import { isMemoryType, isTodoStatus, type MemoryType, type TodoStatus } from '../../model/enums.js';
import { pyDumps, pyFloat, pyString } from '../../model/pyjson.js';
import { jsonShapeProblem, LIMITS } from '../../model/limits.js';

/**
 * Every column of a `memories` row but the rowid, in nooa's table order: the one list that the
 * store's readers and writers of whole rows share.
 */
export const MEMORY_COLUMNS = [
  'id',
  'type',
  'content',
  'importance',
  'salience',
  'strength',
  'created_at',
  'last_accessed',
  'access_count',
  'archived',
  'owner',
  'status',
  'embedding',
  'data',
] as const;

/** The rowid and every column: a whole row as `SELECT ${MEMORY_ROW_COLS} FROM memories` reads it. */
export const MEMORY_ROW_COLS = `rowid, ${MEMORY_COLUMNS.join(', ')}`;

export interface MemoryRow {
  rowid?: number;
  id: string;
  type: string;
  content: string;
  importance: number;
  salience: number;
  strength: number;
  created_at: number;
  last_accessed: number;
  access_count: number;
  archived: number;
  owner: string;
  status: string | null;
  embedding?: Buffer | null;
  data: string;
}

export interface DecodeResult {
  memory: Memory;
  warning?: string;
}

const KNOWN_KEYS = new Set<string>([...DATA_FIELD_ORDER, 'edges']);

/** Fields whose values zod checks to a fixed depth; every other field is open-ended. */
const FIXED_SHAPE_KEYS = new Set<string>([...KNOWN_KEYS].filter((k) => k !== 'trigger' && k !== 'access_log'));
const READ_LIMITS = { maxDepth: LIMITS.maxDepth, maxObjectKeys: Infinity, maxArrayItems: Infinity };

const misshapen = (v: unknown) => v !== null && typeof v === 'object' && jsonShapeProblem(v, READ_LIMITS) !== null;

/**
 * Removes the open-ended values (the trigger, unknown fields, an access ring with anything beyond
 * them, extra score components included) that are beyond the limits, and names them. Another
 * writer may have stored them; left in, they would be written back on the next save and break
 * every recursive reader and SQLite's JSON functions.
 */
function dropMisshapenFields(raw: Record<string, unknown>): string[] {
  const dropped: string[] = [];
  // The ring's walk covers its entries' components too: nothing inside it is dropped apart from it.
  const plain = plainRing(raw['access_log']);
  for (const k of Object.keys(raw)) {
    // A `__proto__` key would become the prototype of the object zod builds from the row.
    if (k !== '__proto__' && (FIXED_SHAPE_KEYS.has(k) || (k === 'access_log' && plain) || !misshapen(raw[k]))) continue;
    delete raw[k];
    dropped.push(k);
  }
  return dropped;
}

const isPlainValue = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** An object whose values are all plain (no nesting, no `__proto__` key). */
function isFlatObject(o: unknown): boolean {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return false;
  for (const k of Object.keys(o)) if (k === '__proto__' || !isPlainValue((o as Record<string, unknown>)[k])) return false;
  return true;
}

/**
 * Whether every entry of a ring is plain: a finite number (a legacy entry), or a flat object whose
 * `components` may also be a flat object. Nothing in such a ring can be beyond the read limits, so
 * it needs no walk. That is every ring nooa or Mnemo writes; the walk (jsonShapeProblem, which
 * names a path for each value it visits) was two thirds of reading a row with a full ring, and a
 * recall reads each result's row three times. Anything else gets the walk, as before.
 */
function plainRing(log: unknown): boolean {
  if (!Array.isArray(log)) return false;
  for (const e of log) {
    if (typeof e === 'number') {
      if (!Number.isFinite(e)) return false;
      continue;
    }
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return false;
    for (const k of Object.keys(e)) {
      if (k === '__proto__') return false;
      const v = (e as Record<string, unknown>)[k];
      if (!isPlainValue(v) && !(k === 'components' && isFlatObject(v))) return false;
    }
  }
  return true;
}

export function decodeRow(row: MemoryRow, edges: Edge[]): DecodeResult {
  let warning: string | undefined;
  let memory: Memory | null = null;
  try {
    const raw = JSON.parse(row.data) as unknown;
    const dropped = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? dropMisshapenFields(raw as Record<string, unknown>) : [];
    if (dropped.length) {
      warning = `memory ${row.id}: ${dropped.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} beyond the limits (nested deeper than ${LIMITS.maxDepth}, or a __proto__ key); ignored, the rest of the row reads as usual`;
    }
    const parsed = storedMemorySchema.safeParse(raw);
    if (parsed.success) {
      const d = parsed.data;
      const extra: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(d)) if (!KNOWN_KEYS.has(k)) extra[k] = v;
      memory = {
        id: d.id,
        type: d.type,
        title: d.title,
        content: d.content,
        owner: d.owner,
        size_chars: d.size_chars,
        token_len: d.token_len,
        sentence_count: d.sentence_count,
        importance: d.importance,
        salience: d.salience,
        confidence: d.confidence,
        mood: d.mood,
        strength: d.strength,
        reinforcement_count: d.reinforcement_count,
        created_at: d.created_at,
        last_accessed_at: d.last_accessed_at ?? d.created_at,
        access_log: d.access_log,
        access_count: d.access_count,
        recalled_count: d.recalled_count,
        searched_count: d.searched_count,
        injected_count: d.injected_count,
        reinforced_count: d.reinforced_count,
        deref_count: d.deref_count,
        source_task_ref: d.source_task_ref,
        related_files: d.related_files,
        chat_turn_ref: d.chat_turn_ref,
        valid_from: d.valid_from,
        valid_to: d.valid_to,
        trigger: d.trigger,
        references: d.references,
        tags: d.tags,
        entities: d.entities,
        place_or_task: d.place_or_task,
        edges,
        archived: d.archived,
        status: d.status as TodoStatus | null,
      };
      if (Object.keys(extra).length) memory.extra = extra;
    } else {
      warning = `memory ${row.id}: data JSON does not match the nooa schema (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}); rebuilt from the promoted columns`;
    }
  } catch {
    warning = `memory ${row.id}: data JSON is malformed; rebuilt from the promoted columns`;
  }
  if (!memory) memory = rebuildFromColumns(row, edges);
  // The promoted columns win over the JSON (archive() flips only the column).
  memory.archived = row.archived !== 0;
  memory.owner = row.owner ?? '';
  memory.status = (row.status ?? null) as TodoStatus | null;
  memory.edges = edges;
  return warning ? { memory, warning } : { memory };
}

function rebuildFromColumns(row: MemoryRow, edges: Edge[]): Memory {
  const type: MemoryType = isMemoryType(row.type) ? row.type : 'info';
  const m = createMemory(
    {
      id: row.id,
      type,
      content: row.content ?? '',
      importance: row.importance,
      salience: row.salience,
      strength: row.strength,
      created_at: row.created_at,
      last_accessed_at: row.last_accessed,
      access_count: row.access_count,
      owner: row.owner ?? '',
      edges,
      status: type === 'todo' && isTodoStatus(row.status) ? row.status : null,
    },
    row.created_at,
  );
  return m;
}

const qs = (s: string | null | undefined) => (s === null || s === undefined ? 'null' : pyString(s));
const qf = (x: number | null | undefined) => (x === null || x === undefined ? 'null' : pyFloat(x));
const qi = (x: number | null | undefined) => (x === null || x === undefined ? 'null' : Number.isInteger(x) ? String(x) : pyFloat(x));
const qsl = (xs: readonly string[]) => `[${xs.map(pyString).join(', ')}]`;

/** One ring entry; the record has a fixed shape, so it is written field by field (the hot path). */
function encodeAccess(r: AccessRecord): string {
  return (
    `{"ts": ${qf(r.ts)}, "channel": ${pyString(r.channel)}, "reader_owner": ${qs(r.reader_owner)}, "session_ref": ${qs(r.session_ref)}, ` +
    `"trace_ref": ${qs(r.trace_ref)}, "query": ${qs(r.query)}, "score": ${qf(r.score)}, "rank": ${qi(r.rank)}, ` +
    `"components": ${r.components ? pyDumps(r.components) : 'null'}}`
  );
}

/**
 * The `data` column: nooa's `model_dump(mode="json", exclude={"edges"})`, written as json.dumps
 * would. Written field by field in declaration order because it runs once per saved memory and
 * a generic serializer was the demo generator's main cost.
 */
export function encodeData(m: Memory): string {
  let out =
    `{"id": ${pyString(m.id)}, "type": ${pyString(m.type)}, "title": ${qs(m.title)}, "content": ${pyString(m.content)}, ` +
    `"owner": ${pyString(m.owner)}, "size_chars": ${qi(m.size_chars)}, "token_len": ${qi(m.token_len)}, ` +
    `"sentence_count": ${qi(m.sentence_count)}, "importance": ${qf(m.importance)}, "salience": ${qf(m.salience)}, ` +
    `"confidence": ${qf(m.confidence)}, "mood": ${qs(m.mood)}, "strength": ${qi(m.strength)}, ` +
    `"reinforcement_count": ${qi(m.reinforcement_count)}, "created_at": ${qf(m.created_at)}, ` +
    `"last_accessed_at": ${qf(m.last_accessed_at)}, "access_log": [${m.access_log.map(encodeAccess).join(', ')}], ` +
    `"access_count": ${qi(m.access_count)}, "recalled_count": ${qi(m.recalled_count)}, "searched_count": ${qi(m.searched_count)}, ` +
    `"injected_count": ${qi(m.injected_count)}, "reinforced_count": ${qi(m.reinforced_count)}, "deref_count": ${qi(m.deref_count)}, ` +
    `"source_task_ref": ${qs(m.source_task_ref)}, "related_files": ${qsl(m.related_files)}, "chat_turn_ref": ${qs(m.chat_turn_ref)}, ` +
    `"valid_from": ${qf(m.valid_from)}, "valid_to": ${qf(m.valid_to)}, "trigger": ${m.trigger ? pyDumps(m.trigger) : 'null'}, ` +
    `"references": ${m.references.length ? pyDumps(m.references) : '[]'}, "tags": ${qsl(m.tags)}, "entities": ${qsl(m.entities)}, ` +
    `"place_or_task": ${qs(m.place_or_task)}, "archived": ${m.archived ? 'true' : 'false'}, "status": ${qs(m.status)}`;
  if (m.extra) {
    for (const [k, v] of Object.entries(m.extra)) if (!KNOWN_KEYS.has(k)) out += `, ${pyString(k)}: ${pyDumps(v)}`;
  }
  return `${out}}`;
}

export function encodeRow(m: Memory): Omit<MemoryRow, 'embedding' | 'rowid'> {
  return {
    id: m.id,
    type: m.type,
    content: m.content,
    importance: m.importance,
    salience: m.salience,
    strength: m.strength,
    created_at: m.created_at,
    last_accessed: m.last_accessed_at,
    access_count: m.access_count,
    archived: m.archived ? 1 : 0,
    owner: m.owner,
    status: m.status,
    data: encodeData(m),
  };
}

/** An embedding as the `embedding` column stores it: little-endian float32, nooa's numpy `tobytes()`. */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Reads a little-endian float32 blob; returns null for an empty or wrong-sized blob. */
export function blobToVector(blob: Uint8Array | null | undefined, dim: number): Float32Array | null {
  if (!blob || blob.byteLength !== dim * 4) return null;
  const out = new Float32Array(dim);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let i = 0; i < dim; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
