/** `mnemo mcp --http` in-process (with a table of test tokens) and SDK clients that speak to it. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../../core/clock.js';
import { startMcpHttpServer, type McpHttpOptions, type RunningMcpHttp } from '../../cli/mcp/http-server.js';
import { startAgentHost } from '../../cli/mcp/agent-host.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import type { Lane } from '../../core/host/lanes.js';
import { tableVerifier, type AgentCredential } from '../../cli/mcp/http-auth.js';
import { freshStorePath, T0 } from './agents.js';

export const credential = (id: string, owner: string, revoked_at: number | null = null): AgentCredential => ({ id, owner, scopes: [], label: null, created_at: T0, revoked_at });

export interface HttpFixture {
  server: RunningMcpHttp;
  engines: EngineHost;
  path: string;
  close(): Promise<void>;
}

/**
 * A server on a fresh store, port 0, whose tokens are `tokens` (token → credential). Its engine host
 * runs every lane's calls in one worker unless `lanes` says otherwise (a worker takes seconds to start from source).
 */
export async function httpServer(tokens: Record<string, AgentCredential>, opts: Partial<McpHttpOptions> & { clock?: Clock; lanes?: Partial<Record<Lane, number>>; extensions?: string[] } = {}): Promise<HttpFixture> {
  const path = freshStorePath();
  const { lanes, extensions, ...serverOpts } = opts;
  const engines = await startAgentHost({ db: path, now: T0, lanes: lanes ?? { agents: 1 }, ...(extensions ? { extensions } : {}) });
  const server = await startMcpHttpServer({ engines, host: '127.0.0.1', port: 0, verify: tableVerifier(new Map(Object.entries(tokens))), workspaceRoot: null, ...serverOpts });
  return {
    server,
    engines,
    path,
    close: async () => {
      await server.close();
      await engines.close();
    },
  };
}

export interface HttpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectHttp(url: string, token: string | null): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), token === null ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'mnemo-http-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** One raw POST to the endpoint (for the refusals, which an SDK client would hide behind an exception). */
export async function rawPost(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: { error?: { code: number; message: string } } | null }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // An SSE body (a successful initialize) is not JSON; the callers read its status and headers.
  }
  return { status: res.status, headers: res.headers, json };
}

export const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** SSE events of a response body as they arrive: `{id, data}`. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id: string | null; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: ?(.*)$/m.exec(block)?.[1] ?? null;
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
      yield { id, data };
    }
  }
}
