/**
 * Spontaneous injection (`recall_for_context`): before a turn, memories associated with what the
 * agent is looking at are rendered into a context block, in the reference's format:
 *
 *   ## Recalled memories (associative)
 *   - [info#1a2b3c4d] head
 *       ref var:plan (LIVE) → …            (up to 4 reference lines per memory)
 *   - [todo:open#5e6f7a8b] head
 *   ## Open todos                          (only when inject_open_todos = "always")
 *   - [todo:open#…] head
 *
 * truncated to `context_char_budget` characters with a trailing " …". The cadence decides whether
 * a turn injects at all: `every_turn` always, `per_task` once per task, `self_gated` only when the
 * query changed. A new task resets the cadence.
 */
import type { Memory } from '../model/memory.js';
import { renderRef, type ResolvedRef } from './references.js';

export const CADENCES = ['self_gated', 'per_task', 'every_turn'] as const;
export type Cadence = (typeof CADENCES)[number];
export const TODO_MODES = ['always', 'relevant', 'off'] as const;
export type OpenTodosMode = (typeof TODO_MODES)[number];

export interface SpontaneousConfig {
  enabled: boolean;
  /** Memories per block; 0 falls back to the recall default (5). */
  top_k: number;
  /** Spread hops for the injection recall (the recall default when undefined). */
  hops?: number;
  cadence: Cadence;
  inject_open_todos: OpenTodosMode;
  open_todos_k: number;
  context_char_budget: number;
  /** Log an `injected` access for each memory in the block (never reinforces). */
  log_injections: boolean;
}

export const DEFAULT_SPONTANEOUS: SpontaneousConfig = {
  enabled: true,
  top_k: 5,
  cadence: 'self_gated',
  inject_open_todos: 'relevant',
  open_todos_k: 5,
  context_char_budget: 2000,
  log_injections: true,
};

export const MAX_REFERENCE_LINES = 4;

/** `[type#id8]`, or `[todo:status#id8]` for todos: the label agents pass back as an id prefix. */
export function memoryLabel(m: Pick<Memory, 'type' | 'status' | 'id'>): string {
  const tag = m.type === 'todo' ? `todo:${m.status ?? 'open'}` : m.type;
  return `[${tag}#${m.id.slice(0, 8)}]`;
}

/** `- [type#id8] head` plus up to four resolved reference lines. */
export function memoryLines(m: Memory, resolve: (m: Memory) => ResolvedRef[]): string[] {
  const head = (m.title || m.content).replace(/\n/g, ' ').trim();
  const lines = [`- ${memoryLabel(m)} ${head}`];
  for (const r of resolve(m).slice(0, MAX_REFERENCE_LINES)) lines.push(`    ${renderRef(r)}`);
  return lines;
}

/** Cuts to `budget` characters (code points) and marks the cut with " …". */
export function truncateBlock(text: string, budget: number): string {
  const chars = [...text];
  if (chars.length <= budget) return text;
  return `${chars.slice(0, budget).join('').trimEnd()} …`;
}

export interface BlockParts {
  shown: Memory[];
  extraTodos: Memory[];
}

/** Chooses what the block shows: recalled memories (todos dropped in "off" mode), then open todos in "always" mode. */
export function selectBlock(recalled: readonly Memory[], openTodos: readonly Memory[], cfg: SpontaneousConfig, k: number): BlockParts {
  const seen = new Map<string, Memory>();
  for (const m of recalled) {
    if (cfg.inject_open_todos === 'off' && m.type === 'todo') continue;
    if (!seen.has(m.id)) seen.set(m.id, m);
  }
  const shown = [...seen.values()].slice(0, k);
  const listed = new Set(shown.map((m) => m.id));
  const extraTodos = cfg.inject_open_todos === 'always' ? openTodos.filter((t) => !listed.has(t.id)) : [];
  return { shown, extraTodos };
}

export function renderBlock(parts: BlockParts, resolve: (m: Memory) => ResolvedRef[], budget: number): string {
  const lines: string[] = [];
  if (parts.shown.length) {
    lines.push('## Recalled memories (associative)');
    for (const m of parts.shown) lines.push(...memoryLines(m, resolve));
  }
  if (parts.extraTodos.length) {
    lines.push('## Open todos');
    for (const t of parts.extraTodos) lines.push(...memoryLines(t, resolve));
  }
  return lines.length ? truncateBlock(lines.join('\n'), budget) : '';
}

/** What the agent is looking at this turn. */
export interface TurnContext {
  /** The current message (the reference's default `last_message` query). */
  message?: string | null;
  /** Explicit queries (other strategies: recent events, working state); used instead of `message`. */
  queries?: readonly string[] | null;
  /** The current task's id: a new id resets the cadence, as a Task event does in the reference. */
  task?: string | null;
}

export function deriveQueries(ctx: TurnContext): string[] {
  const raw = ctx.queries?.length ? ctx.queries : ctx.message ? [ctx.message] : [];
  return [...new Set(raw.map((q) => q.trim()).filter((q) => q !== ''))];
}

/** The cadence state of one agent: whether this turn injects. */
export class InjectionGate {
  private lastHash: string | null = null;
  private primed = false;
  private task: string | null | undefined = undefined;

  /** A new task: the next turn injects whatever the cadence. */
  resetTask(task: string | null = null): void {
    this.lastHash = null;
    this.primed = false;
    this.task = task;
  }

  /** Whether to inject for these queries; call `commit` after injecting. */
  shouldInject(cadence: Cadence, queries: readonly string[], task?: string | null): boolean {
    if (task !== undefined && task !== this.task) this.resetTask(task);
    if (queries.length === 0) return false;
    if (cadence === 'per_task' && this.primed) return false;
    if (cadence === 'self_gated' && JSON.stringify(queries) === this.lastHash) return false;
    return true;
  }

  commit(queries: readonly string[]): void {
    this.lastHash = JSON.stringify(queries);
    this.primed = true;
  }
}
