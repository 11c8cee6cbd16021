/**
 * The MCP agents inside an engine worker (a worker extension, core/host/worker-extension.ts): each
 * MCP session's AgentMemory lives here, on the worker's engine, and its tool calls arrive as one
 * request each (hosted-agent.ts sends them). The tools run here, formatting included, so the
 * thread that speaks MCP never touches the store. Also the credential check of `mnemo mcp --http`,
 * a store read like any other.
 */
import { AgentMemory } from '../../core/agent/agent-memory.js';
import { verifyCredentialToken } from '../../core/agent/credentials.js';
import { MnemoError } from '../../core/errors.js';
import { AgentApiSession } from '../../core/host/agent-session.js';
import type { WorkerExtensionContext } from '../../core/host/worker-extension.js';
import type { AgentCredential } from '../../core/model/agent-credential.js';
import { resourceText, runTool, type AgentResource } from './agent-door.js';
import { toolsFor } from './server.js';
import type { ToolDef } from './tools.js';

export interface AgentOpen {
  key: string;
  owner: string;
  sessionRef: string;
  credential: AgentCredential | null;
  workspaceRoot: string | null;
  conformanceFixtures: boolean;
}

interface Hosted {
  agent: AgentMemory;
  tools: readonly ToolDef[];
}

export function register(ctx: WorkerExtensionContext): void {
  const agents = new Map<string, Hosted>();
  const hosted = (key: string): Hosted => {
    const h = agents.get(key);
    if (!h) throw new MnemoError('not_found', 'this MCP session has ended; initialize a new one');
    return h;
  };
  ctx.handle('agent.open', (payload) => {
    const p = payload as AgentOpen;
    // The session is the caller's owner and nothing else; with a credential, it also enforces the
    // credential's scopes and records its id on every access and change.
    const api = new AgentApiSession({ clock: ctx.session.clock, reader: { owner: p.owner, session_ref: p.sessionRef }, ...(p.credential ? { credential: p.credential } : {}) });
    // The worker's engine, shared by every session here; an agent is dropped, never closed (closing would close the engine).
    api.adopt(ctx.session.engine());
    agents.set(p.key, { agent: new AgentMemory(api, { workspaceRoot: p.workspaceRoot }), tools: toolsFor(p.conformanceFixtures) });
    return null;
  });
  ctx.handle('agent.tool', (payload) => {
    const p = payload as { key: string; name: string; args: unknown };
    const h = hosted(p.key);
    return runTool(h.agent, h.tools, p.name, p.args);
  });
  ctx.handle('agent.resource', (payload) => {
    const p = payload as { key: string; kind: AgentResource };
    return resourceText(hosted(p.key).agent, p.kind);
  });
  ctx.handle('agent.close', (payload) => {
    agents.delete((payload as { key: string }).key);
    return null;
  });
  ctx.handle('credentials.verify', (payload) => verifyCredentialToken(ctx.session.engine(), (payload as { token: string }).token));
}
