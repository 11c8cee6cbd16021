/**
 * `mnemo mcp <db>`: serves one store to one agent over stdio MCP. stdout is the protocol channel,
 * so everything human goes to stderr. The server runs until the client closes stdin (or a signal).
 * With --http it serves many agents over Streamable HTTP instead (mcp-http.ts). The agent's memory
 * runs in an engine worker (agent-host.ts), so this thread keeps reading the protocol while it
 * works: a cancel from the client reaches a running reflect.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { badInput } from '../../core/errors.js';
import { validateOwner } from '../../core/model/owner.js';
import { defaultWorkspaceRoot, explicitWorkspaceRoot, NO_ROOT_MESSAGE } from '../../core/agent/workspace.js';
import { createMcpServer } from '../mcp/server.js';
import { startAgentHost } from '../mcp/agent-host.js';
import { HostedAgent } from '../mcp/hosted-agent.js';
import { LimitedStdioServerTransport } from '../mcp/stdio-transport.js';
import { flag, requirePositional, str, type Command } from '../command.js';
import { MCP_HTTP_OPTIONS, MCP_HTTP_USAGE, runMcpHttp } from './mcp-http.js';
import { REPLICA_OPTION, replicaOptions } from '../replica-option.js';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve a store to an agent over MCP (stdio), or to many agents over HTTP (--http)',
  usage: `mnemo mcp <db> [--owner role@inst] [--session ID] [--root DIR] [--replica URL]... [--now T]\n       ${MCP_HTTP_USAGE}`,
  timed: true,
  options: {
    owner: { type: 'string' },
    session: { type: 'string' },
    root: { type: 'string' },
    ...REPLICA_OPTION,
    ...MCP_HTTP_OPTIONS,
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    if (flag(ctx, 'http')) return runMcpHttp(ctx, db);
    const httpOnly = Object.keys(MCP_HTTP_OPTIONS).find((k) => ctx.values[k] !== undefined);
    if (httpOnly) throw badInput(`--${httpOnly} applies only with --http`, { field: httpOnly });
    const owner = validateOwner(str(ctx, 'owner') ?? '', '--owner');
    const sessionRef = str(ctx, 'session') ?? `mcp-${randomUUID().slice(0, 8)}`;
    const rootFlag = str(ctx, 'root');
    const workspaceRoot = rootFlag !== undefined ? explicitWorkspaceRoot(rootFlag) : defaultWorkspaceRoot(process.cwd(), homedir());
    const engines = await startAgentHost({ db, ...(ctx.now !== undefined ? { now: ctx.now } : {}), agents: 1, onWarning: (m) => ctx.io.err(`warning: ${m}`), ...replicaOptions(ctx) });
    let agent: HostedAgent;
    try {
      agent = await HostedAgent.start(engines, { key: sessionRef, owner, sessionRef, credential: null, workspaceRoot, conformanceFixtures: false });
    } catch (err) {
      await engines.close();
      throw err;
    }
    const server = createMcpServer(agent);
    // Answers an oversized message with an error and keeps serving (the SDK's transport quit silently).
    const transport = new LimitedStdioServerTransport(process.stdin, process.stdout, (line) => ctx.io.err(line));
    const closed = new Promise<void>((done) => {
      transport.onclose = () => done();
    });
    const stop = () => void server.close().catch(() => undefined);
    process.stdin.once('end', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    await server.connect(transport);
    ctx.io.err(`mnemo mcp: serving ${db} to ${owner || '(unowned)'} (session ${sessionRef}) on stdio`);
    ctx.io.err(workspaceRoot ? `mnemo mcp: file: references read inside ${workspaceRoot}` : `mnemo mcp: ${NO_ROOT_MESSAGE}`);
    try {
      await closed;
    } finally {
      process.stdin.off('end', stop);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      await agent.close();
      await engines.close();
    }
  },
};
