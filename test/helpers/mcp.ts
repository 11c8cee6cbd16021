/** An MCP client connected in-process to a server over one agent (InMemoryTransport pair). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { createMcpServer, type McpServerOptions } from '../../cli/mcp/server.js';
import { agentOn } from './agents.js';

export interface McpHandle {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectInProcess(agent: AgentMemory, options: McpServerOptions = {}): Promise<McpHandle> {
  const server = createMcpServer(agent, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'mnemo-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dataOf(r: CallToolResult): any {
  if (r.isError) throw new Error(`tool failed: ${textOf(r)}`);
  return r.structuredContent;
}

/**
 * An agent on `path` as `owner`, connected over MCP in process; both are closed by `cleanup`, which
 * the test file runs after each test (the pattern of the MCP suites).
 */
export async function mcpAgent(path: string, owner: string, cleanup: (() => unknown)[], opts: Parameters<typeof agentOn>[2] = {}): Promise<{ agent: AgentMemory; mcp: McpHandle }> {
  const agent = agentOn(path, owner, opts);
  const mcp = await connectInProcess(agent);
  cleanup.push(() => agent.close(), () => mcp.close());
  return { agent, mcp };
}
