import { z } from 'zod';
import { method } from '../define.js';
import { atField } from './shared/fields.js';
import type { ChangeAuthor, EdgeDiffRow, MemoryDiffRow, StoreAsOf, StoreDiff } from '../../model/history.js';
import { BUILT_IN_PATTERNS, customPatternSchema, MAX_CUSTOM_PATTERNS } from '../../model/redaction.js';
import type { PgReplicaStatus } from '../../store/port/port.js';
import type { CountsHeld } from '../../store/queries/counts.js';
export type { ChangeAuthor, EdgeDiffRow, MemoryDiffRow, StoreAsOf, StoreDiff, PgReplicaStatus, CountsHeld };

/** The most rows of each list store.diff returns. */
export const MAX_DIFF_ROWS = 10_000;

export interface StoreInfo {
  path: string;
  name: string;
  /** The default scoring profile: built in or saved in the store. */
  profile: string;
  readonly: boolean;
  nooa_schema_version: number;
  mnemo_schema_version: number;
  data_version: number;
  embedder: string;
  dim: number;
  now: number;
  clock_frozen: boolean;
  counts: { memories: number; live: number; archived: number; edges: number; events: number; changes: number };
  /**
   * Set while another writer's long change (a reflection's apply, an undo, an erase) is being
   * written in batches: the counts stay as they were taken until it ends, while the list and the
   * graph follow it batch by batch. Null when the counts are the rows as they are.
   */
  counts_held: CountsHeld | null;
}

/** A store's redaction at the door (engine/redaction.ts): the policy, every pattern it knows, and what it replaced. */
export interface RedactionView {
  enabled: boolean;
  patterns: { kind: string; description: string; source: string; built_in: boolean; optional: boolean; on: boolean }[];
  /** Replacements made by this store's writes, by kind, and in all. */
  counts: Record<string, number>;
  total: number;
}

const optionalKinds = BUILT_IN_PATTERNS.filter((p) => p.optional).map((p) => p.kind) as [string, ...string[]];

export const storeContract = {
  'store.redaction': method<RedactionView>()({
    description:
      "The store's redaction at the door: whether it is on, every pattern (built in: high-confidence secrets on, emails and phone numbers off unless turned on; and the operator's own), and how many replacements the store's writes made, by kind.",
    input: z.object({}).optional().default({}),
  }),
  'store.setRedaction': method<RedactionView>()({
    description: `Change the store's redaction policy (journalled, undoable): turn it on or off, turn the optional built-in kinds on (${optionalKinds.join(', ')}), or set the operator's own patterns (at most ${MAX_CUSTOM_PATTERNS}, each run under RE2: linear time, no look-around or back-references). Applies to new writes only. Fields left out keep their value.`,
    input: z
      .object({
        enabled: z.boolean().optional(),
        optional: z.array(z.enum(optionalKinds)).max(10).optional(),
        custom: z.array(customPatternSchema).max(MAX_CUSTOM_PATTERNS).optional(),
      })
      .strict(),
    mutates: true,
  }),
  'store.open': method<StoreInfo>()({
    description:
      'Open an existing nooa or Mnemo store and make it the current store. Never creates or converts a file (that is mnemo init); browser mode opens only the store it was started with or stores under its --root; the app opens stores only from its dialog.',
    input: z.object({
      path: z.string().min(1, 'path is required').max(4096, 'path is too long').refine((p) => !p.includes('\0'), 'path contains a NUL byte'),
      // Kept in the schema only to refuse it with the way to do it instead.
      create: z.literal(false, { message: 'store.open never creates a store; create one with "mnemo init <path>"' }).optional(),
      readonly: z.boolean().optional(),
    }),
    switchesStore: true,
  }),
  'store.asOf': method<StoreAsOf>()({
    description:
      "What an instant resolves to in the store's history: the feed position the store stood at then, how many later changes time travel rolls back, and the earliest instant the history reaches. An earlier instant is refused (bad_input, details.reason \"before_history\", details.earliest).",
    input: z.object({ at: atField }),
  }),
  'store.diff': method<StoreDiff>()({
    description:
      'What changed between two instants: memories added, changed (which fields), archived, restored, deleted, accessed (only with include_accesses), edges linked, unlinked or changed; each with its writers (a journalled change id, an agent credential and owner, or a foreign writer).',
    input: z
      .object({
        from: atField,
        to: atField,
        include_accesses: z.boolean().optional().default(false),
        limit: z.number().int().min(1).max(MAX_DIFF_ROWS, `limit must be at most ${MAX_DIFF_ROWS} rows`).optional().default(1000),
      })
      .refine((v) => v.from <= v.to, { message: 'from must be at or before to', path: ['from'] }),
  }),
  'store.info': method<StoreInfo>()({
    description: 'Facts about the current store: path, profile, schema versions, counts, data_version.',
    input: z.object({}).optional().default({}),
  }),
  'store.replicas': method<StoreReplicas>()({
    description:
      "The read replicas of a PostgreSQL store opened with them (--replica, MNEMO_PG_REPLICAS): each one's state (streaming, behind, down, not_standby), its lag in bytes of the primary's log and in seconds, and how many reads it served or passed to the primary. Empty for a store without replicas. Asks each replica, and the primary, when called.",
    input: z.object({}).optional().default({}),
  }),
};

export interface StoreReplicas {
  replicas: PgReplicaStatus[];
}
