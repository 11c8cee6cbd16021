/** The closed vocabularies of nooa-memory v0.0.9 (schema.py), value for value. */

export const MEMORY_TYPES = ['info', 'skill', 'episode', 'intent', 'todo', 'reflection', 'scratch'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export const EDGE_TYPES = [
  'derived_from',
  'created_by',
  'supports',
  'contradicts',
  'refines',
  'related',
  'causes',
  'precedes',
  'part_of',
  'triggers',
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** Causal edges carry full weight (1.0) during spread; every other type carries 0.6. */
export const CAUSAL_EDGE_TYPES: ReadonlySet<EdgeType> = new Set<EdgeType>(['derived_from', 'created_by', 'causes', 'refines']);

export const ACCESS_CHANNELS = ['created', 'recalled', 'searched', 'injected', 'reinforced', 'deref', 'reflected'] as const;
export type AccessChannel = (typeof ACCESS_CHANNELS)[number];

/** Channels that feed ACT-R base-level activation. `injected` is deliberately left out. */
export const ACTR_CHANNELS: ReadonlySet<AccessChannel> = new Set<AccessChannel>([
  'created',
  'recalled',
  'searched',
  'reinforced',
  'deref',
]);

/** Channels that move `last_accessed_at`, count in `access_count` and (by default) bump strength. */
export const TOUCHING_CHANNELS: ReadonlySet<AccessChannel> = new Set<AccessChannel>([
  'recalled',
  'searched',
  'reinforced',
  'deref',
]);

/** Per-channel uncapped counters on the record. `created` and `reflected` have none. */
export const CHANNEL_COUNTER = {
  recalled: 'recalled_count',
  searched: 'searched_count',
  injected: 'injected_count',
  reinforced: 'reinforced_count',
  deref: 'deref_count',
} as const satisfies Partial<Record<AccessChannel, string>>;
export type CounterField = (typeof CHANNEL_COUNTER)[keyof typeof CHANNEL_COUNTER];

export const TODO_STATUSES = ['open', 'done', 'dropped'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export const REF_KINDS = ['var', 'context', 'file', 'todo', 'memory'] as const;
export type RefKind = (typeof REF_KINDS)[number];

/** The access-log ring length (`_ACCESS_LOG_CAP`). */
export const ACCESS_LOG_CAP = 64;

export const isMemoryType = (v: unknown): v is MemoryType => (MEMORY_TYPES as readonly unknown[]).includes(v);
export const isEdgeType = (v: unknown): v is EdgeType => (EDGE_TYPES as readonly unknown[]).includes(v);
export const isTodoStatus = (v: unknown): v is TodoStatus => (TODO_STATUSES as readonly unknown[]).includes(v);
