/** The public shapes of the agent door (library and MCP): inputs, options and results. */
import type { MemoryType } from '../model/enums.js';
import type { AccessComponents } from '../model/memory.js';
import type { SpontaneousConfig } from './inject.js';
import type { ReferenceHost, ResolvedRef } from './references.js';
import type { WritePolicy } from './remember.js';

/** A verbal band (CRITICAL | HIGH | MEDIUM | LOW | TRIVIAL) or a number in [0, 10]. */
export type Importance = string | number;

export interface RememberInput {
  content: string;
  type?: MemoryType;
  importance?: Importance;
  salience?: number;
  title?: string | null;
  tags?: string[];
  entities?: string[];
  /** `kind:key` pointers to live state (var, context, file, todo, memory). */
  references?: string[];
  source_task_ref?: string | null;
  /** Reinforce a near-duplicate instead of writing (default true). */
  dedup?: boolean;
  /** Write even though this exact content was forgotten before (default false: a conflict error). */
  force?: boolean;
}

export interface UpdateInput {
  content?: string;
  title?: string | null;
  importance?: Importance;
  type?: MemoryType;
  tags?: string[];
  /** OPEN | DONE | DROPPED (todos only). */
  status?: string;
  references?: string[];
}

export interface RecallOptions {
  k?: number;
  /** Omitted: own role plus unowned; `*`: everyone; `role` or `role@instance`. */
  owner?: string | null;
  hops?: number;
  /** Rank superseded memories (conflict resolutions) too, marked with superseded_by. */
  include_superseded?: boolean;
}

export interface RecalledMemory {
  id: string;
  label: string;
  type: MemoryType;
  title: string | null;
  content: string;
  owner: string;
  status: string | null;
  tags: string[];
  importance: number;
  strength: number;
  rank: number;
  score: number;
  components: AccessComponents;
  references: ResolvedRef[];
  /** Present when a conflict resolution superseded it (returned only when the recall asked for superseded memories). */
  superseded_by?: string;
}

export interface AgentMemoryOptions {
  /**
   * Where `file:` references live; null turns them off. Default: the working directory, unless it
   * is the file-system root or the home folder (or above it), where they are off.
   */
  workspaceRoot?: string | null;
  /** Lookups for `var:`, `context:` and `todo:` references. */
  host?: ReferenceHost;
  spontaneous?: Partial<SpontaneousConfig>;
  write?: Partial<WritePolicy>;
}

export interface InjectionResult {
  /** The block, `""` when nothing is relevant, or null when the cadence skipped this turn (keep the previous block). */
  text: string | null;
  memory_ids: string[];
}
