/**
 * The memories themselves: list, read, add, edit, archive and restore, tags and the list's facet
 * counts, selecting every match of a filter, and manual curation (merge, forget, delete, erase).
 */
import { z } from 'zod';
import type { Memory } from '../../model/memory.js';
import type { MergeOrder } from '../../engine/curation.js';
import type { EraseDryRun, EraseReceipt } from '../../erase/erase.js';
import { MATCH_MAX_CHARS, MATCH_MIN_CHARS } from '../../model/erase-text.js';
import { method } from '../define.js';
import { atField, idField } from './shared/fields.js';
import { memoryAddInput, memoryListInput, memoryPatchInput } from './shared/memory-inputs.js';

/** Which memories an erase names: exactly one of ids, match or owner. */
const eraseInput = z
  .object({
    ids: z.array(z.string().min(1, 'id is required').max(200)).min(1, 'give at least one id').max(100_000).optional(),
    match: z.string().max(MATCH_MAX_CHARS * 4).optional(),
    owner: z.string().min(1, 'owner names whose memories to erase: "role" or "role@instance"').max(200).optional(),
  })
  .strict()
  .refine((v) => [v.ids, v.match, v.owner].filter((x) => x !== undefined).length === 1, { error: `give exactly one of ids, match (${MATCH_MIN_CHARS} to ${MATCH_MAX_CHARS} characters) or owner` });

/** The most ids one "select all matching" returns: the bulk methods take at most this many. */
export const MAX_SELECT_IDS = 100_000;

const ids = z.array(idField).min(1, 'give at least one id').max(100_000);
const tagList = z.array(z.string().min(1, 'tags cannot be empty strings').max(200)).max(50);

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
  /** The conflict resolution that superseded it (as of the instant shown), with the superseding memory's head; null when none did. */
  superseded: { by: string; by_head: string | null; at: number } | null;
}

export interface Facet {
  value: string;
  n: number;
}

export interface MemoryFacets {
  types: Facet[];
  owners: Facet[];
  statuses: Facet[];
  tags: Facet[];
  /** Rows the tag counts cover when fewer than all (the most recently added); null = every row. */
  tags_sampled: number | null;
  archived: number;
  live: number;
}

export const memoryContract = {
  'memory.list': method<{ total: number; rows: MemorySummary[] }>()({
    description: 'List memories with filters (type, owner scope, status, archived, text, tags), sorting and paging; `at` lists them as they were at that instant.',
    input: memoryListInput.extend({ at: atField.optional() }),
  }),
  'memory.get': method<MemoryDetail>()({
    description: 'One memory with every field, its verbal labels and its edges in and out; `at` shows it as it was at that instant.',
    input: z.object({ id: idField, at: atField.optional() }),
  }),
  'memory.add': method<Memory & { redacted?: Record<string, number> }>()({
    description: "Add a memory (journalled). Secrets the store's redaction policy finds are replaced by [redacted:<kind>] before it is stored; redacted counts them by kind.",
    input: memoryAddInput,
    mutates: true,
  }),
  'memory.update': method<{ memory: Memory; changed: string[]; change_id: number | null; redacted?: Record<string, number> }>()({
    description: "Change fields of a memory (journalled, undoable). New text is redacted as memory.add's is.",
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
  'memory.ids': method<{ total: number; ids: string[] }>()({
    description: `The ids of every memory the Memories filters match (at most ${MAX_SELECT_IDS.toLocaleString('en')}), for selecting all of them before a bulk action; total says how many matched.`,
    input: memoryListInput.omit({ sort: true, dir: true, offset: true, limit: true }).extend({ at: atField.optional() }),
  }),
  'memory.tag': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Add and/or remove tags on many memories as one journalled, undoable change.',
    input: z.object({
      ids: z.array(idField).min(1, 'give at least one id').max(100_000),
      add: tagList.optional().default([]),
      remove: tagList.optional().default([]),
    }),
    mutates: true,
  }),
  'memory.facets': method<MemoryFacets>()({
    description: 'Value counts for the memory list filters: types, exact owners, todo statuses, tags (most used first).',
    input: z
      .object({
        archived: z.enum(['live', 'archived', 'all']).optional().default('live'),
        tag_limit: z.number().int().min(1).max(5000).optional().default(200),
        at: atField.optional(),
      })
      .optional()
      .default({ archived: 'live', tag_limit: 200 }),
  }),
  'memory.merge': method<{ survivor: Memory; archived: string[]; change_id: number | null }>()({
    description:
      'Merge memories into a chosen survivor (fields editable); sources are archived, lineage kept as refines edges. Memories of different owners are refused unless allow_cross_owner is true.',
    input: z.object({ ids, survivor: idField, patch: memoryPatchInput.optional(), allow_cross_owner: z.boolean().optional().default(false) }),
    mutates: true,
  }),
  'memory.mergeOrder': method<MergeOrder>()({
    description: 'The default survivor of a merge of these memories (the older copy, the same rule as reflection) and their owners.',
    input: z.object({ ids: z.array(idField).min(1, 'give at least one id').max(1000) }),
  }),
  'memory.forget': method<{ forgotten: { id: string; hash: string }[]; change_id: number | null }>()({
    description: 'Forget memories: delete them and record a content tombstone, so re-adding the same text is flagged (undoable).',
    input: z.object({ ids }),
    mutates: true,
  }),
  'memory.erasePlan': method<EraseDryRun>()({
    description:
      'What memory.erase would remove, place by place, and what no store reaches; nothing is written (a dry run). Takes exactly one of ids, match or owner, as memory.erase does.',
    input: eraseInput,
  }),
  'memory.erase': method<EraseReceipt>()({
    description:
      'Erase memories for good, from every place their content lives: the row and its edges, journal images (replaced by an erased marker: the changes that need them can no longer be undone), the change feed (time travel shows "erased at T by X"), access events with their queries, tombstones, the belief rows derived from them, the index snapshots and the list search beside the store; then the bytes are made to go (SQLite: VACUUM and a WAL truncate; PostgreSQL: VACUUM FULL of the touched tables). Exactly one of ids (a gone memory by its full id too), match (every memory whose own text holds it, ASCII letters case-folded; the text is also scrubbed from every other place: access queries, belief evidence, journal and feed images) or owner ("role" or "role@instance"). memory.erasePlan lists what would go first. It runs as the long write (journal.progress; journal.cancel until its first write), cannot be undone, and answers with a receipt (counts per place, when, by whom) that the journal keeps as an erase entry.',
    input: eraseInput,
    mutates: true,
  }),
  'memory.delete': method<{ deleted: string[]; change_id: number | null }>()({
    description: 'Delete memories and their edges (journalled, undoable; no tombstone).',
    input: z.object({ ids }),
    mutates: true,
  }),
};
