/**
 * An MCP session's agent as the thread that speaks MCP sees it: its memory lives in an engine
 * worker (agent-worker.ts), pinned to one worker of the agents lane, and each tool call is one
 * request there. `reflect`, the one long tool, runs in the jobs lane instead (the same agent, opened
 * there too), so a session's reflection never delays another session's recall.
 *
 * A call is cancelled when its caller goes away: the MCP request is cancelled, its HTTP connection
 * closes before the answer (requestGone), or the session ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { roleOf } from '../../core/model/owner.js';
import { MnemoError, type ErrorCode } from '../../core/errors.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import type { Lane } from '../../core/host/lanes.js';
import type { AgentDoor, AgentResource } from './agent-door.js';
import type { AgentOpen } from './agent-worker.js';
import type { ToolOutput } from './tools.js';

/** Tools that are long work, and run in the jobs lane. */
export const LONG_TOOLS: ReadonlySet<string> = new Set(['reflect']);

/** The HTTP request a tool call arrived on is gone (its connection closed before the answer): set around each request by the HTTP server. */
export const requestGone = new AsyncLocalStorage<AbortSignal>();

export class HostedAgent implements AgentDoor {
  readonly role: string;
  private readonly ended = new AbortController();

  private constructor(
    private readonly host: EngineHost,
    private readonly open: AgentOpen,
    /** Its worker in the agents lane. */
    readonly worker: number,
  ) {
    this.role = roleOf(open.owner);
  }

  get owner(): string {
    return this.open.owner;
  }

  static async start(host: EngineHost, open: AgentOpen): Promise<HostedAgent> {
    const worker = host.pin('agents');
    const agent = new HostedAgent(host, open, worker);
    try {
      await Promise.all([agent.ask('agents', 'agent.open', open), agent.ask('jobs', 'agent.open', open)]);
    } catch (err) {
      await agent.close();
      throw err;
    }
    return agent;
  }

  private async ask(lane: Lane, name: string, payload: unknown, signal?: AbortSignal): Promise<unknown> {
    const signals = [this.ended.signal, ...(signal ? [signal] : []), ...(requestGone.getStore() ? [requestGone.getStore()!] : [])];
    const envelope = await this.host.request(lane, name, payload, { ...(lane === 'agents' ? { worker: this.worker } : {}), signal: AbortSignal.any(signals) });
    if (!envelope.ok) throw new MnemoError(envelope.error.code as ErrorCode, envelope.error.message, envelope.error.details);
    return envelope.value;
  }

  async tool(name: string, args: unknown, signal?: AbortSignal): Promise<ToolOutput> {
    return (await this.ask(LONG_TOOLS.has(name) ? 'jobs' : 'agents', 'agent.tool', { key: this.open.key, name, args }, signal)) as ToolOutput;
  }

  async resource(kind: AgentResource): Promise<string> {
    return (await this.ask('agents', 'agent.resource', { key: this.open.key, kind })) as string;
  }

  /** Ends the session: its calls still running are cancelled, and its agent is dropped in both workers. */
  async close(): Promise<void> {
    if (this.ended.signal.aborted) return;
    this.ended.abort();
    this.host.unpin('agents', this.worker);
    await Promise.all(
      (['agents', 'jobs'] as const).map((lane) => this.host.request(lane, 'agent.close', { key: this.open.key }, lane === 'agents' ? { worker: this.worker } : {}).catch(() => undefined)),
    );
  }
}
