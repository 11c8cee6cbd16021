/**
 * `mnemo mcp <store> --http`: the same tools as stdio, to many agents over Streamable HTTP. The
 * store is opened once; each MCP session gets its own agent on it. What a person must know goes to
 * stderr: the URL (tests read it there), and a warning for every loosened default.
 */
import { homedir } from 'node:os';
import { defaultWorkspaceRoot, explicitWorkspaceRoot, NO_ROOT_MESSAGE } from '../../core/agent/workspace.js';
import { validateOwner } from '../../core/model/owner.js';
import { badInput } from '../../core/errors.js';
import { isLoopbackAddress } from '../../server/security.js';
import { startMcpHttpServer, checkBindable, DEFAULT_IDLE_SECONDS, DEFAULT_MAX_BATCH, MAX_BATCH_CEILING } from '../mcp/http-server.js';
import { DEFAULT_CONNECTION_CAPS } from '../mcp/http-connections.js';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_RATE_LIMIT } from '../mcp/http-limits.js';
import { DEFAULT_MAX_BODY_BYTES } from '../mcp/http-body.js';
import { storeCredentialVerifier } from '../mcp/store-verifier.js';
import { startAgentHost } from '../mcp/agent-host.js';
import { JSON_SCHEMA_FIXTURE_TOOL } from '../mcp/conformance-fixtures.js';
import { flag, intOpt, numOpt, str, strs, type CommandContext, type OptionSpec } from '../command.js';
import { untilSignal } from '../signals.js';
import { replicaOptions } from '../replica-option.js';

export const MCP_HTTP_OPTIONS: OptionSpec = {
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allow-remote': { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  anonymous: { type: 'string' },
  'conformance-fixtures': { type: 'boolean' },
  'rate-limit': { type: 'string' },
  burst: { type: 'string' },
  'max-in-flight': { type: 'string' },
  'max-body-mb': { type: 'string' },
  'max-batch': { type: 'string' },
  'max-connections': { type: 'string' },
  'max-connections-per-client': { type: 'string' },
  'idle-minutes': { type: 'string' },
  workers: { type: 'string' },
};

export const MCP_HTTP_USAGE =
  'mnemo mcp <db> --http [--host H] [--port P] [--allow-remote] [--allowed-host NAME]... [--anonymous role@inst [--conformance-fixtures]] [--rate-limit N/s] [--burst N] [--max-in-flight N] [--max-batch N] [--max-connections N] [--max-connections-per-client N] [--max-body-mb N] [--idle-minutes N] [--workers N] [--root DIR] [--replica URL]... [--now T]';

function positive(ctx: CommandContext, key: string, fallback: number): number {
  const n = numOpt(ctx, key) ?? fallback;
  if (!(n > 0)) throw badInput(`--${key} must be a positive number, got ${n}`, { field: key });
  return n;
}

export async function runMcpHttp(ctx: CommandContext, db: string): Promise<void> {
  for (const stdioOnly of ['owner', 'session']) {
    if (str(ctx, stdioOnly) !== undefined) {
      throw badInput(`--${stdioOnly} does not apply over HTTP: each request's owner is the one its token was issued to (or --anonymous on loopback), and each MCP session is its own`, { field: stdioOnly });
    }
  }
  const host = str(ctx, 'host') ?? '127.0.0.1';
  const port = intOpt(ctx, 'port', 0, [0, 65535]);
  const anonymousFlag = str(ctx, 'anonymous');
  const anonymousOwner = anonymousFlag === undefined ? null : validateOwner(anonymousFlag, '--anonymous');
  const allowRemote = flag(ctx, 'allow-remote');
  // Refuse before opening anything, so a refused start leaves no trace.
  const conformanceFixtures = flag(ctx, 'conformance-fixtures');
  const extraHosts = strs(ctx, 'allowed-host');
  checkBindable(host, { allowRemote, anonymousOwner, conformanceFixtures, extraHosts });
  const maxBatch = intOpt(ctx, 'max-batch', DEFAULT_MAX_BATCH, [1, MAX_BATCH_CEILING]);
  const maxConnections = intOpt(ctx, 'max-connections', DEFAULT_CONNECTION_CAPS.maxConnections, [1, 100_000]);
  const maxConnectionsPerClient = intOpt(ctx, 'max-connections-per-client', Math.min(DEFAULT_CONNECTION_CAPS.maxPerClient, maxConnections), [1, maxConnections]);
  const workers = ctx.values['workers'] === undefined ? undefined : intOpt(ctx, 'workers', 2, [1, 64]);
  // The engines every session shares: a few agent workers (each session pinned to one), a jobs worker, a light one for credentials.
  const engines = await startAgentHost({ db, ...(ctx.now !== undefined ? { now: ctx.now } : {}), ...(workers !== undefined ? { agents: workers } : {}), light: true, onWarning: (m) => ctx.io.err(`warning: ${m}`), ...replicaOptions(ctx) });
  const rootFlag = str(ctx, 'root');
  const workspaceRoot = rootFlag !== undefined ? explicitWorkspaceRoot(rootFlag) : defaultWorkspaceRoot(process.cwd(), homedir());
  let running;
  try {
    running = await startMcpHttpServer({
      engines,
      host,
      port,
      allowRemote,
      verify: storeCredentialVerifier(engines),
      anonymousOwner,
      extraHosts,
      rateLimit: { perSecond: positive(ctx, 'rate-limit', DEFAULT_RATE_LIMIT.perSecond), burst: positive(ctx, 'burst', DEFAULT_RATE_LIMIT.burst) },
      maxInFlight: intOpt(ctx, 'max-in-flight', DEFAULT_MAX_IN_FLIGHT, [1, 10_000]),
      maxBatch,
      maxConnections,
      maxConnectionsPerClient,
      maxBodyBytes: Math.round(positive(ctx, 'max-body-mb', DEFAULT_MAX_BODY_BYTES / (1024 * 1024)) * 1024 * 1024),
      idleSeconds: positive(ctx, 'idle-minutes', DEFAULT_IDLE_SECONDS / 60) * 60,
      workspaceRoot,
      conformanceFixtures,
    });
  } catch (err) {
    await engines.close();
    throw err;
  }
  if (!isLoopbackAddress(host)) {
    ctx.io.err(`warning: mnemo mcp is reachable beyond this machine on ${host}; it speaks plain HTTP, so put a TLS reverse proxy in front and keep tokens secret`);
  }
  if (anonymousOwner) {
    ctx.io.err(`warning: requests without a token are served as ${anonymousOwner} (--anonymous): any local process can read and write that agent's memories`);
  }
  if (conformanceFixtures) {
    ctx.io.err(`warning: --conformance-fixtures adds the MCP conformance suite's test tool ${JSON_SCHEMA_FIXTURE_TOOL} to every session; it is for running that suite, not for agents`);
  }
  ctx.io.err(`mnemo mcp: serving ${db} over HTTP at ${running.url}`);
  ctx.io.err(workspaceRoot ? `mnemo mcp: file: references read inside ${workspaceRoot}` : `mnemo mcp: ${NO_ROOT_MESSAGE}`);
  try {
    await untilSignal();
  } finally {
    await running.close();
    await engines.close();
  }
}
