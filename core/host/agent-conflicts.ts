/**
 * The conflict queue for an agent (the MCP tools `conflicts` and `resolve_conflict`): the agent's
 * own scope, never beliefs (they have no owner), and resolutions under nooa's write rule. Here, one
 * floor above both the agent room and the review room, because it needs each.
 */
import type { AgentMemory } from '../agent/agent-memory.js';
import { nextTurn } from '../recall/pipeline.js';
import { conflictPage, prepareConflictIndex, type ConflictKind, type ConflictPage } from '../review/conflicts/queue.js';
import { resolvePair, type PairResolution, type ResolveResult } from '../review/conflicts/resolve.js';

export async function agentConflicts(agent: AgentMemory, opts: { limit?: number; kinds?: readonly ConflictKind[]; owner?: string | null } = {}): Promise<ConflictPage> {
  await prepareConflictIndex(agent.engine, nextTurn);
  const kinds = (opts.kinds?.length ? opts.kinds : (['contradicts', 'value'] as const)).filter((k) => k !== 'belief');
  return agent.readAs((scope) => conflictPage(agent.engine, { scope, kinds, offset: 0, limit: opts.limit ?? 10 }), opts.owner);
}

export function agentResolve(agent: AgentMemory, r: PairResolution): Promise<ResolveResult> {
  return agent.writeAs('resolve_conflict', (actor, scope) => resolvePair(agent.engine, r, { actor, scope }));
}
