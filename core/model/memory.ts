/**
 * The Memory record exactly as nooa-memory v0.0.9 persists it. Field names stay snake_case on
 * purpose: they are the on-disk JSON (`memories.data`) that nooa reads back, so the record is the
 * wire format and no mapping layer can drift from it.
 */
import { randomUUID } from 'node:crypto';
import { badInput } from '../errors.js';
import {
  ACCESS_LOG_CAP,
  CHANNEL_COUNTER,
  TOUCHING_CHANNELS,
  isTodoStatus,
  type AccessChannel,
  type EdgeType,
  type MemoryType,
  type RefKind,
  type TodoStatus,
} from './enums.js';

export interface AccessComponents {
  source: string;
  cos: number;
  rel: number;
  rec: number;
  imp: number;
  spread: number;
}

/**
 * What made a score, as additive contributions already weighted: relevance, recency, importance,
 * the BM25 keyword term (mnemo), what the entity boost added (mnemo; a multiplier shown as the
 * amount it adds) and spread (γ·spread). Their sum is the score.
 */
export interface ScoreTerms {
  rel: number;
  rec: number;
  imp: number;
  kw?: number;
  ent?: number;
  spread: number;
  /** What a demoted superseded memory lost (negative); absent otherwise. */
  superseded?: number;
}

export interface AccessRecord {
  ts: number;
  channel: AccessChannel;
  reader_owner: string;
  session_ref: string | null;
  trace_ref: string | null;
  query: string | null;
  score: number | null;
  rank: number | null;
  components: AccessComponents | null;
}

export interface MemoryRef {
  kind: RefKind;
  key: string;
  preview: string | null;
  captured_at: number;
}

export interface Edge {
  target_id: string;
  type: EdgeType;
  weight: number;
  created_at: number;
}

export interface IntentTrigger {
  kind?: string;
  cue?: string | null;
  fire_at?: number | null;
  [key: string]: unknown;
}

export interface Memory {
  id: string;
  type: MemoryType;
  title: string | null;
  content: string;
  owner: string;
  size_chars: number;
  token_len: number;
  sentence_count: number;
  importance: number;
  salience: number;
  confidence: number;
  mood: string | null;
  strength: number;
  reinforcement_count: number;
  created_at: number;
  last_accessed_at: number;
  access_log: AccessRecord[];
  access_count: number;
  recalled_count: number;
  searched_count: number;
  injected_count: number;
  reinforced_count: number;
  deref_count: number;
  source_task_ref: string | null;
  related_files: string[];
  chat_turn_ref: string | null;
  valid_from: number | null;
  valid_to: number | null;
  trigger: IntentTrigger | null;
  references: MemoryRef[];
  tags: string[];
  entities: string[];
  place_or_task: string | null;
  edges: Edge[];
  archived: boolean;
  status: TodoStatus | null;
  /** Keys found in a stored `data` payload that this version does not know; written back untouched. */
  extra?: Record<string, unknown>;
}

/** The persisted key order of `data` (pydantic declaration order, `edges` excluded). */
export const DATA_FIELD_ORDER = [
  'id',
  'type',
  'title',
  'content',
  'owner',
  'size_chars',
  'token_len',
  'sentence_count',
  'importance',
  'salience',
  'confidence',
  'mood',
  'strength',
  'reinforcement_count',
  'created_at',
  'last_accessed_at',
  'access_log',
  'access_count',
  'recalled_count',
  'searched_count',
  'injected_count',
  'reinforced_count',
  'deref_count',
  'source_task_ref',
  'related_files',
  'chat_turn_ref',
  'valid_from',
  'valid_to',
  'trigger',
  'references',
  'tags',
  'entities',
  'place_or_task',
  'archived',
  'status',
] as const satisfies readonly (keyof Memory)[];

export function newMemoryId(): string {
  return randomUUID().replace(/-/g, '');
}

export function accessRecord(ts: number, channel: AccessChannel, extra: Partial<AccessRecord> = {}): AccessRecord {
  return {
    ts,
    channel,
    reader_owner: extra.reader_owner ?? '',
    session_ref: extra.session_ref ?? null,
    trace_ref: extra.trace_ref ?? null,
    query: extra.query ?? null,
    score: extra.score ?? null,
    rank: extra.rank ?? null,
    components: extra.components ?? null,
  };
}

/** Python `len()` counts code points, not UTF-16 units. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function deriveSizeChars(content: string): number {
  return codePointLength(content);
}
export function deriveTokenLen(content: string): number {
  return Math.max(1, Math.floor(codePointLength(content) / 4));
}
export function deriveSentenceCount(content: string): number {
  return Math.max(1, (content.match(/[.!?]+/g) ?? []).length || 1);
}

/** Recomputes the derived size fields from the content (what `update()` does in later versions). */
export function refreshDerivedSizes(m: Memory): void {
  m.size_chars = deriveSizeChars(m.content);
  m.token_len = deriveTokenLen(m.content);
  m.sentence_count = deriveSentenceCount(m.content);
}

export type NewMemoryInput = Partial<Omit<Memory, 'content'>> & { content: string };

/**
 * Builds a Memory the way the pydantic model does: defaults, derived size fields when 0,
 * the seeded `created` access entry, and the todo status rule.
 */
export function createMemory(input: NewMemoryInput, now: number): Memory {
  const created = input.created_at ?? now;
  const type: MemoryType = input.type ?? 'info';
  const m: Memory = {
    id: input.id ?? newMemoryId(),
    type,
    title: input.title ?? null,
    content: input.content,
    owner: input.owner ?? '',
    size_chars: input.size_chars ?? 0,
    token_len: input.token_len ?? 0,
    sentence_count: input.sentence_count ?? 0,
    importance: input.importance ?? 5.0,
    salience: input.salience ?? 0.0,
    confidence: input.confidence ?? 0.5,
    mood: input.mood ?? null,
    strength: input.strength ?? 1,
    reinforcement_count: input.reinforcement_count ?? 0,
    created_at: created,
    last_accessed_at: input.last_accessed_at ?? created,
    access_log: input.access_log ? [...input.access_log] : [],
    access_count: input.access_count ?? 0,
    recalled_count: input.recalled_count ?? 0,
    searched_count: input.searched_count ?? 0,
    injected_count: input.injected_count ?? 0,
    reinforced_count: input.reinforced_count ?? 0,
    deref_count: input.deref_count ?? 0,
    source_task_ref: input.source_task_ref ?? null,
    related_files: input.related_files ? [...input.related_files] : [],
    chat_turn_ref: input.chat_turn_ref ?? null,
    valid_from: input.valid_from ?? null,
    valid_to: input.valid_to ?? null,
    trigger: input.trigger ?? null,
    references: input.references ? [...input.references] : [],
    tags: input.tags ? [...input.tags] : [],
    entities: input.entities ? [...input.entities] : [],
    place_or_task: input.place_or_task ?? null,
    edges: input.edges ? input.edges.map((e) => ({ ...e })) : [],
    archived: input.archived ?? false,
    status: input.status ?? null,
  };
  if (input.extra) m.extra = { ...input.extra };
  if (m.size_chars === 0) m.size_chars = deriveSizeChars(m.content);
  if (m.token_len === 0) m.token_len = deriveTokenLen(m.content);
  if (m.sentence_count === 0) m.sentence_count = deriveSentenceCount(m.content);
  if (m.access_log.length === 0) m.access_log.push(accessRecord(created, 'created'));
  applyTodoRule(m);
  return m;
}

/** Only todos carry a status: a todo defaults to open, any other type must have none. */
export function applyTodoRule(m: Pick<Memory, 'type' | 'status'>): void {
  if (m.type === 'todo') {
    if (m.status === null || m.status === undefined) m.status = 'open';
    else if (!isTodoStatus(m.status)) {
      throw badInput(`invalid todo status ${JSON.stringify(m.status)}; expected open | done | dropped`, { field: 'status' });
    }
  } else if (m.status !== null && m.status !== undefined) {
    throw badInput(`status is only valid on todo memories (this one is ${m.type})`, { field: 'status' });
  }
}

/** `to_status`: the agent-facing OPEN|DONE|DROPPED to the stored lower-case value. */
export function toStatus(label: string): TodoStatus {
  const v = label.trim().toLowerCase();
  if (!isTodoStatus(v)) throw badInput(`unknown todo status ${JSON.stringify(label)}; expected OPEN | DONE | DROPPED`, { field: 'status' });
  return v;
}

/** The text the embedder sees: title, content, tags, entities joined by newlines, empties skipped. */
export function embeddingText(m: Pick<Memory, 'title' | 'content' | 'tags' | 'entities'>): string {
  const parts: string[] = [];
  if (m.title) parts.push(m.title);
  parts.push(m.content);
  if (m.tags.length) parts.push(m.tags.join(' '));
  if (m.entities.length) parts.push(m.entities.join(' '));
  return parts.join('\n');
}

/** Recall cues: lower-cased whole tag, entity and place strings (not tokens). */
export function cueSet(m: Pick<Memory, 'tags' | 'entities' | 'place_or_task'>): Set<string> {
  const cues = new Set<string>();
  for (const t of m.tags) cues.add(t.toLowerCase());
  for (const e of m.entities) cues.add(e.toLowerCase());
  if (m.place_or_task) cues.add(m.place_or_task.toLowerCase());
  return cues;
}

/** Adds an edge, or raises the weight to the max when the same (target, type) already exists. */
export function addEdge(m: Memory, target: string, type: EdgeType, weight: number, now: number): boolean {
  if (!(weight >= 0 && weight <= 1)) throw badInput(`edge weight ${weight} is outside [0, 1]`, { field: 'weight' });
  const existing = m.edges.find((e) => e.target_id === target && e.type === type);
  if (existing) {
    if (weight > existing.weight) {
      existing.weight = weight;
      return true;
    }
    return false;
  }
  m.edges.push({ target_id: target, type, weight, created_at: now });
  return true;
}

/**
 * nooa's merge fold of a duplicate's scalars into the memory that absorbs it: reinforcements and
 * strength add up (the fold itself counts as one reinforcement), importance, salience and
 * confidence take the larger. Edges move separately (each caller keeps its own edge set).
 */
export function foldDuplicateScalars(
  into: Pick<Memory, 'reinforcement_count' | 'strength' | 'importance' | 'salience' | 'confidence'>,
  dup: Pick<Memory, 'reinforcement_count' | 'strength' | 'importance' | 'salience' | 'confidence'>,
): void {
  into.reinforcement_count += 1 + dup.reinforcement_count;
  into.strength += dup.strength;
  into.importance = Math.max(into.importance, dup.importance);
  into.salience = Math.max(into.salience, dup.salience);
  into.confidence = Math.max(into.confidence, dup.confidence);
}

export interface LogAccessOptions {
  /** `false` logs a touching access without bumping strength (what `update()` does). */
  reinforce?: boolean;
  cap?: number;
}

/**
 * Appends to the ring (last `cap` entries kept), bumps the channel counter (uncapped), and for
 * touching channels moves `last_accessed_at`, counts the access and bumps strength.
 * `injected` is not touching, so it never changes strength or recency.
 */
export function logAccess(m: Memory, record: AccessRecord, opts: LogAccessOptions = {}): void {
  const cap = opts.cap ?? ACCESS_LOG_CAP;
  m.access_log.push(record);
  if (m.access_log.length > cap) m.access_log.splice(0, m.access_log.length - cap);
  const counter = (CHANNEL_COUNTER as Partial<Record<AccessChannel, keyof Memory>>)[record.channel];
  if (counter) (m[counter] as number) += 1;
  if (TOUCHING_CHANNELS.has(record.channel)) {
    m.last_accessed_at = record.ts;
    m.access_count += 1;
    if (opts.reinforce !== false) m.strength += 1;
  }
}

/** The one-line head shown in lists and explain rows: title or content, newlines as spaces, 120 chars. */
export function memoryHead(m: Pick<Memory, 'title' | 'content'>, max = 120): string {
  const text = (m.title || m.content).replace(/\n/g, ' ').trim();
  return [...text].slice(0, max).join('');
}

/** A compact repr that can never blow up a prompt (nooa caps it under 500 characters). */
export function memoryRepr(m: Memory): string {
  const head = [...m.content.replace(/\s+/g, ' ')].slice(0, 80).join('');
  const title = m.title ? ` title=${JSON.stringify([...m.title].slice(0, 60).join(''))}` : '';
  return `<Memory ${m.id.slice(0, 8)} ${m.type}${title} ${JSON.stringify(head)}${m.content.length > 80 ? '…' : ''}>`;
}
