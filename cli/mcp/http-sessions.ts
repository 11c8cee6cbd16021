/**
 * The MCP sessions of one HTTP server. Each session is one McpServer over one agent for its
 * caller's owner, whose memory lives in one of the engine host's agent workers (hosted-agent.ts):
 * fifty agents share a few engines, they do not open the store fifty times. A session belongs to
 * the caller that initialized it: another credential presenting its id is told it does not exist.
 * Sessions end on DELETE, on transport close, when idle past the timeout (checked by sweep, against
 * the injected clock), or when the server stops; a session that ends cancels its calls still running.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Clock } from '../../core/clock.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import { HostedAgent } from './hosted-agent.js';
import { createMcpServer } from './server.js';
import { BoundedEventStore } from './event-store.js';
import { gateCalls } from './http-calls.js';
import type { Caller } from './http-auth.js';

export interface McpSessionOptions {
  /** Where the agents' memories run (agent workers, and a jobs worker for reflect). */
  engines: EngineHost;
  /** The server's clock for idleness (never frozen by --now). */
  clock: Clock;
  idleSeconds: number;
  maxSessionsPerCaller: number;
  workspaceRoot: string | null;
  /** Offer the conformance suite's fixture tools in every session (--conformance-fixtures). */
  conformanceFixtures?: boolean;
}

export interface McpSession {
  id: string;
  callerKey: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  agent: HostedAgent;
  lastSeen: number;
  /** When its client last opened a GET stream (a resume), on performance.now()'s clock. */
  resumedAt?: number;
}

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();

  constructor(private readonly opts: McpSessionOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  countFor(callerKey: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.callerKey === callerKey) n++;
    return n;
  }

  canOpen(caller: Caller): boolean {
    return this.countFor(caller.key) < this.opts.maxSessionsPerCaller;
  }

  /** The caller's session `id`, touched; undefined when it is unknown or another caller's. */
  find(id: string, caller: Caller): McpSession | undefined {
    const s = this.sessions.get(id);
    if (!s || s.callerKey !== caller.key) return undefined;
    s.lastSeen = this.opts.clock.now();
    return s;
  }

  /** The caller's session `id` without touching it (undefined when unknown or another caller's). */
  peek(id: string, caller: Caller): McpSession | undefined {
    const s = this.sessions.get(id);
    return s && s.callerKey === caller.key ? s : undefined;
  }

  /**
   * A new session's transport for an initialize request: it joins the registry once the SDK has
   * given it an id (in the initialize response), so a failed initialize leaves nothing behind.
   */
  async open(caller: Caller): Promise<StreamableHTTPServerTransport> {
    const sessionRef = `mcp-http-${randomUUID().slice(0, 8)}`;
    const conformanceFixtures = this.opts.conformanceFixtures === true;
    // The session is the caller's owner and nothing else; with a credential, the session also
    // enforces its scopes and records its id on every access and change (agent-worker.ts).
    const agent = await HostedAgent.start(this.opts.engines, {
      key: sessionRef,
      owner: caller.owner,
      sessionRef,
      credential: caller.credential,
      workspaceRoot: this.opts.workspaceRoot,
      conformanceFixtures,
    });
    const server = createMcpServer(agent, { conformanceFixtures });
    let entry: McpSession | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      onsessioninitialized: (id) => {
        entry = { id, callerKey: caller.key, transport, server, agent, lastSeen: this.opts.clock.now() };
        this.sessions.set(id, entry);
      },
    });
    transport.onclose = () => {
      if (entry) this.sessions.delete(entry.id);
      void agent.close();
    };
    await server.connect(transport);
    // Each call of a POST is admitted on its own, and takes its turn among the calls of its worker (http-calls.ts).
    gateCalls(transport, `agents-${agent.worker}`);
    return transport;
  }

  /** Closes sessions idle for longer than the timeout; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.opts.clock.now() - this.opts.idleSeconds;
    const idle = [...this.sessions.values()].filter((s) => s.lastSeen < cutoff);
    for (const s of idle) await this.close(s);
    return idle.length;
  }

  async closeAll(): Promise<void> {
    for (const s of [...this.sessions.values()]) await this.close(s);
  }

  private async close(s: McpSession): Promise<void> {
    this.sessions.delete(s.id);
    await s.server.close().catch(() => undefined);
    await s.agent.close();
  }
}
