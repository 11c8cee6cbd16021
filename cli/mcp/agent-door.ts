/**
 * What an MCP server needs of the agent it serves: who it is, its tools and its resources. The
 * memory itself may be in this thread (an AgentMemory, as tests and embedders run it) or in an
 * engine worker (hosted-agent.ts, as `mnemo mcp` runs it), and the MCP server does not know which.
 */
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { MnemoError } from '../../core/errors.js';
import { memoryDataLines } from './data-marking.js';
import type { ToolDef, ToolOutput } from './tools.js';

export type AgentResource = 'recent' | 'todos';

export interface AgentDoor {
  readonly owner: string;
  readonly role: string;
  /** Runs a tool on arguments the SDK has validated; throws the typed error. `signal`: the caller went away. */
  tool(name: string, args: unknown, signal?: AbortSignal): Promise<ToolOutput>;
  /** A resource's markdown. */
  resource(kind: AgentResource): Promise<string>;
}

export const RECENT_LIMIT = 20;

/** A resource's markdown for `agent`; each read is logged as an injection, as the resources are what a client injects. */
export function resourceText(agent: AgentMemory, kind: AgentResource): string {
  if (kind === 'recent') {
    const recent = agent.recent(RECENT_LIMIT);
    agent.logRead(recent, 'injected', 'resource recent memories');
    const body = recent.flatMap((m) => memoryDataLines(m, (x) => agent.resolveReferences(x)));
    return recent.length ? ['## Recent memories', ...body].join('\n') : 'no memories yet';
  }
  const todos = agent.openTodoMemories();
  agent.logRead(todos, 'injected', 'resource open todos');
  const body = todos.flatMap((m) => memoryDataLines(m, (x) => agent.resolveReferences(x)));
  return todos.length ? ['## Open todos', ...body].join('\n') : 'no open todos';
}

/** Runs `name` of `tools` for `agent`. */
export async function runTool(agent: AgentMemory, tools: readonly ToolDef[], name: string, args: unknown): Promise<ToolOutput> {
  const def = tools.find((t) => t.name === name);
  if (!def) throw new MnemoError('not_found', `no tool named ${JSON.stringify(name)}`);
  return (def.run as (agent: AgentMemory, args: unknown) => Promise<ToolOutput> | ToolOutput)(agent, args);
}

/** The agent in this thread (tests, embedders): its tools run here. */
export function localAgentDoor(agent: AgentMemory, tools: readonly ToolDef[]): AgentDoor {
  return {
    owner: agent.owner,
    role: agent.role,
    tool: (name, args) => runTool(agent, tools, name, args),
    resource: async (kind) => resourceText(agent, kind),
  };
}
