/**
 * What a module loaded into every engine worker of a host (WorkerSetup.extensions) may do: serve
 * requests of its own kind beside the API's calls, on the worker's session and engine. The MCP
 * server's agents are such a module (cli/mcp/agent-worker.ts): each MCP session's AgentMemory lives
 * in a worker, and a tool call crosses the boundary as one request.
 */
import type { ApiSession } from '../api/context.js';
import type { Lane } from './lanes.js';

export interface WorkerExtensionContext {
  lane: Lane;
  /** The worker's session: its engine is the worker's one connection to the store. */
  session: ApiSession;
  /** Serves EngineHost.request(…, name, payload) with `fn`; a throw comes back as the typed error. */
  handle(name: string, fn: (payload: unknown) => unknown): void;
}

export interface WorkerExtension {
  register(context: WorkerExtensionContext): void;
}
