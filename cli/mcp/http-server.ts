/**
 * MCP over Streamable HTTP (`mnemo mcp <store> --http`): one node:http server, endpoint /mcp.
 * Every request passes, in order: the DNS-rebinding check (Host in the allow-list, a present
 * Origin too), authentication (bearer token → credential → owner, or the --anonymous owner on
 * loopback), the caller's rate limit and in-flight bound, the body size limit, the batch length;
 * then it reaches the caller's MCP session, where each call of the POST is admitted on its own
 * (http-calls.ts: a call over a limit gets its own error inside the batch). Connections are capped
 * per client address and in total before any of this (http-connections.ts). Refusals are JSON-RPC
 * error bodies with the matching HTTP status, worded for people; nothing of the request's headers
 * (the token) is ever echoed or logged.
 *
 * The agents' memories run in the engine host's workers (hosted-agent.ts), so this thread only
 * speaks HTTP and MCP. A call whose connection closes before its answer is cancelled.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import { badInput } from '../../core/errors.js';
import { allowedHostsFor, hostAllowed, isLoopbackAddress, originAllowed, withExtraHosts } from '../../server/security.js';
import { authenticate, challenge, type Caller, type CredentialVerifier } from './http-auth.js';
import { readBody, DEFAULT_MAX_BODY_BYTES } from './http-body.js';
import { CallLimits, carrying, PostAdmissions, REFUSED, type Admission, type CallTicket } from './http-calls.js';
import { ConnectionGate, DEFAULT_CONNECTION_CAPS, type ConnectionCaps } from './http-connections.js';
import { DEFAULT_FAIR_SHARE, FairShare, type FairShareOptions } from './http-fair-share.js';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_RATE_LIMIT, InFlight, TokenBuckets, type RateLimit } from './http-limits.js';
import { McpSessions } from './http-sessions.js';
import { requestGone } from './hosted-agent.js';

export const MCP_PATH = '/mcp';
/**
 * How long a call whose connection closed waits for its client to resume the stream (GET with
 * Last-Event-ID, which replays what it missed) before it is cancelled as gone. The SDK's client
 * reconnects within a few seconds.
 */
export const DEFAULT_RESUME_GRACE_MS = 10_000;
export const DEFAULT_IDLE_SECONDS = 30 * 60;
export const DEFAULT_SESSIONS_PER_CALLER = 32;
/**
 * JSON-RPC messages in one POST. The SDK's client never batches (the 2025-06-18 protocol dropped
 * batches); a client that does gets a few calls at once, and each counts against its limits.
 */
export const DEFAULT_MAX_BATCH = 10;
/** The SDK's own ceiling: it refuses a longer batch whatever we allow. */
export const MAX_BATCH_CEILING = 100;

/** JSON-RPC 2.0 error codes the refusals use. */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

export interface McpHttpOptions {
  /** Where the agents' memories run: an engine host with agents and jobs lanes (the store open), and agent-worker.ts loaded. */
  engines: EngineHost;
  /** The server's clock for rate limits and idleness (default: the system clock). */
  clock?: Clock;
  host: string;
  port: number;
  /** Binding beyond loopback is refused unless the operator says so. */
  allowRemote?: boolean;
  verify: CredentialVerifier;
  /** Serve requests without a token as this owner (loopback only); null: every request needs a token. */
  anonymousOwner?: string | null;
  /** Host names allowed beyond loopback and the bound address (a reverse proxy's public name). */
  extraHosts?: readonly string[];
  rateLimit?: RateLimit;
  maxInFlight?: number;
  /** How tool calls share the event loop between callers (http-fair-share.ts). */
  fairShare?: FairShareOptions;
  maxBodyBytes?: number;
  /** Messages in one POST (a JSON-RPC batch); each still counts against the limits. */
  maxBatch?: number;
  /** Open connections in all and per client address (http-connections.ts). */
  maxConnections?: number;
  maxConnectionsPerClient?: number;
  idleSeconds?: number;
  /** DEFAULT_RESUME_GRACE_MS unless set (tests). */
  resumeGraceMs?: number;
  maxSessionsPerCaller?: number;
  workspaceRoot?: string | null;
  /** Offer the conformance suite's fixture tools: only with anonymousOwner, on loopback. */
  conformanceFixtures?: boolean;
}

export interface RunningMcpHttp {
  url: string;
  port: number;
  sessions: McpSessions;
  /** Each caller's requests running now (for status and tests). */
  inFlight: Pick<InFlight, 'running'>;
  /** Open connections (for status and tests). */
  connections: Pick<ConnectionGate, 'open'>;
  close(): Promise<void>;
}

function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

/** The name of an --allowed-host value without its port: `[::1]:8080` → `[::1]`, `example.org:443` → `example.org`, `::1` → `::1`. */
function hostName(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) return v.replace(/^(\[[^\]]*\])(:\d+)?$/, '$1');
  return v.split(':').length === 2 ? v.replace(/:\d*$/, '') : v;
}

export function checkBindable(host: string, opts: { allowRemote?: boolean; anonymousOwner?: string | null; conformanceFixtures?: boolean; extraHosts?: readonly string[] }): void {
  const loopback = isLoopbackAddress(host);
  if (!loopback && !opts.allowRemote) {
    throw badInput(`--host ${host} is not a loopback address: serving beyond this machine needs --allow-remote (and TLS in front, from a reverse proxy)`, { field: 'host' });
  }
  if (!loopback && opts.anonymousOwner) {
    throw badInput(`--anonymous serves without a token, so it is allowed only on a loopback address (127.0.0.1, ::1, localhost), not on ${host}`, { field: 'anonymous' });
  }
  // A name beyond loopback (a reverse proxy's) would let whoever reaches it in without a token.
  const remoteName = opts.anonymousOwner ? (opts.extraHosts ?? []).find((h) => !isLoopbackAddress(hostName(h))) : undefined;
  if (remoteName !== undefined) {
    throw badInput(`--anonymous serves without a token, so --allowed-host may name loopback only (localhost, 127.0.0.1, [::1]), not --allowed-host ${remoteName}; give the agents behind that name tokens (mnemo agents add) instead of --anonymous`, { field: 'allowed-host' });
  }
  // The fixtures are for the conformance suite, which connects without a token to a local server.
  if (opts.conformanceFixtures && !opts.anonymousOwner) {
    throw badInput('--conformance-fixtures is only for the MCP conformance suite: use it together with --anonymous on a loopback address', { field: 'conformance-fixtures' });
  }
}

export async function startMcpHttpServer(opts: McpHttpOptions): Promise<RunningMcpHttp> {
  checkBindable(opts.host, opts);
  const clock = opts.clock ?? systemClock;
  const anonymousOwner = opts.anonymousOwner ?? null;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const buckets = new TokenBuckets(opts.rateLimit ?? DEFAULT_RATE_LIMIT, clock);
  const inFlight = new InFlight(opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  const fairShare = new FairShare(opts.fairShare ?? DEFAULT_FAIR_SHARE, clock);
  const limits = new CallLimits(buckets, inFlight, fairShare);
  const maxBatch = opts.maxBatch ?? DEFAULT_MAX_BATCH;
  const caps: ConnectionCaps = {
    ...DEFAULT_CONNECTION_CAPS,
    ...(opts.maxConnections !== undefined ? { maxConnections: opts.maxConnections } : {}),
    ...(opts.maxConnectionsPerClient !== undefined ? { maxPerClient: opts.maxConnectionsPerClient } : {}),
  };
  const connections = new ConnectionGate(caps, clock);
  const idleSeconds = opts.idleSeconds ?? DEFAULT_IDLE_SECONDS;
  const sessions = new McpSessions({
    engines: opts.engines,
    clock,
    idleSeconds,
    maxSessionsPerCaller: opts.maxSessionsPerCaller ?? DEFAULT_SESSIONS_PER_CALLER,
    workspaceRoot: opts.workspaceRoot ?? null,
    conformanceFixtures: opts.conformanceFixtures === true,
  });
  let allowed = new Set<string>();

  async function toSession(req: IncomingMessage, res: ServerResponse, caller: Caller, held: CallTicket | null): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
      const body = await readBody(req, maxBody);
      if (!body.ok) {
        sendError(res, 413, INVALID_REQUEST, `request too large: ${body.bytes} bytes, over the ${megabytes(maxBody)} limit of one MCP request; it was not processed (send smaller arguments)`, { connection: 'close' });
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.text);
      } catch {
        sendError(res, 400, PARSE_ERROR, 'the request body is not JSON');
        return;
      }
      const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
      if (Array.isArray(parsed) && (parsed.length === 0 || parsed.length > maxBatch)) {
        const why = parsed.length === 0 ? 'an empty batch holds no message to answer' : `a batch of ${parsed.length} messages is over the limit of ${maxBatch} per request; send fewer at once (the server's --max-batch)`;
        sendError(res, parsed.length === 0 ? 400 : 413, INVALID_REQUEST, `${why}; nothing of it was run`);
        return;
      }
      const initializing = messages.some((m) => isInitializeRequest(m));
      if (typeof sessionId !== 'string' && initializing) {
        if (!sessions.canOpen(caller)) {
          sendError(res, 429, REFUSED, 'too many open sessions for this agent; close one (DELETE /mcp) or let idle ones expire', { 'retry-after': '60' });
          return;
        }
        const transport = await sessions.open(caller);
        await transport.handleRequest(req, res, parsed);
        // A failed initialize leaves nothing behind: its agent is dropped in the workers too.
        if (transport.sessionId === undefined) await transport.close();
        return;
      }
      const session = typeof sessionId === 'string' ? sessions.find(sessionId, caller) : undefined;
      if (!session) return noSession(res, sessionId);
      // Each message is admitted on its own; the first takes over the place the request took on arrival.
      const admissions: Admission[] = messages.map((m, i) => (i === 0 && held ? { ok: true, ticket: held } : limits.admit(caller.key, isJSONRPCRequest(m))));
      const post = new PostAdmissions(admissions);
      res.once('close', () => post.releaseAll());
      (req as IncomingMessage & { auth?: unknown }).auth = carrying(caller.key, post);
      await session.transport.handleRequest(req, res, parsed);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const session = typeof sessionId === 'string' ? sessions.find(sessionId, caller) : undefined;
      if (!session) return noSession(res, sessionId);
      if (req.method === 'GET') session.resumedAt = performance.now();
      await session.transport.handleRequest(req, res);
      return;
    }
    sendError(res, 405, REFUSED, `method ${req.method ?? '?'} is not allowed on ${MCP_PATH}; use POST, GET or DELETE`, { allow: 'POST, GET, DELETE' });
  }

  function noSession(res: ServerResponse, sessionId: string | string[] | undefined): void {
    // An id of another caller's session gets the same answer as an unknown one: it does not exist for you.
    if (typeof sessionId === 'string') sendError(res, 404, REFUSED, 'no such MCP session (it ended or expired); initialize a new one');
    else sendError(res, 400, REFUSED, 'no MCP session: send initialize first, then the mcp-session-id header it returns');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (!hostAllowed(req.headers.host, allowed) || !originAllowed(req.headers.origin, allowed)) {
      sendError(res, 403, REFUSED, 'this server does not answer for that Host or Origin (DNS-rebinding protection); add the name with --allowed-host if it is yours');
      return;
    }
    if (path !== MCP_PATH) {
      sendError(res, 404, REFUSED, `nothing here; the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const auth = await authenticate(req.headers.authorization, opts.verify, anonymousOwner);
    if (!auth.ok) {
      const message = auth.reason === 'missing' ? 'this server needs a token: send Authorization: Bearer <token> (issue one with mnemo agents add)' : 'the token is not valid: it is unknown or was revoked';
      sendError(res, 401, REFUSED, message, { 'www-authenticate': challenge(auth.reason) });
      return;
    }
    const caller = auth.caller;
    connections.markServed(req.socket);
    const admitted = buckets.take(caller.key);
    if (!admitted.ok) {
      const s = admitted.retryAfterSeconds;
      sendError(res, 429, REFUSED, `too many requests from this agent; retry in ${s} ${s === 1 ? 'second' : 'seconds'}`, { 'retry-after': String(s) });
      return;
    }
    // GET streams stay open for the session's life; only calls count against the in-flight bound.
    // A POST holds a place from its arrival (a slow body counts); its first call takes it over.
    const counted = req.method === 'POST';
    if (counted && !inFlight.enter(caller.key)) {
      sendError(res, 429, REFUSED, 'this agent already has as many requests running as it may; wait for one to finish', { 'retry-after': '1' });
      return;
    }
    const held = counted ? limits.held(caller.key) : null;
    if (held) res.once('close', () => held.release());
    // The calls this request carries are cancelled if its connection closes before its answer and
    // its client does not resume the stream within the grace (a resumed stream gets the answer).
    const gone = new AbortController();
    res.once('close', () => {
      if (res.writableFinished) return;
      const closedAt = performance.now();
      const sessionId = req.headers['mcp-session-id'];
      setTimeout(() => {
        const session = typeof sessionId === 'string' ? sessions.peek(sessionId, caller) : undefined;
        if (!session || (session.resumedAt ?? -Infinity) < closedAt) gone.abort();
      }, opts.resumeGraceMs ?? DEFAULT_RESUME_GRACE_MS).unref();
    });
    await requestGone.run(gone.signal, () => toSession(req, res, caller, held));
  }

  const http = createServer((req, res) => {
    // A socket answered 503 by the connection caps: its request is not served.
    if (connections.isRefused(req.socket)) {
      req.socket.destroy();
      return;
    }
    handle(req, res).catch(() => {
      // Never a stack trace to the client; the message alone would carry no more than this.
      sendError(res, 500, -32603, 'the server failed to handle this request');
    });
  });
  connections.attach(http);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  allowed = withExtraHosts(allowedHostsFor(opts.host, port), opts.extraHosts ?? []);
  const sweepEvery = Math.max(1, Math.min(60, idleSeconds / 4)) * 1000;
  const sweeper = setInterval(() => {
    void sessions.sweep();
    buckets.prune();
    fairShare.prune();
  }, sweepEvery);
  sweeper.unref();
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    sessions,
    inFlight,
    connections,
    async close() {
      clearInterval(sweeper);
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
