/**
 * The agents of the mcp-load benchmark: MCP clients over Streamable HTTP (the SDK's own transport,
 * as a remote agent would use it), each with its own bearer token. A paced agent calls at an
 * agent's pace, one call at a time (it waits for each answer, as a model does); the flooder calls
 * recall back to back. Every call is timed and kept, successful or not.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CAUSES, ENVS, SERVICES, SYMPTOMS, TAGS } from '../../core/demo/recipe.js';

export type LoadOp = 'remember' | 'recall' | 'reflect';

export interface CallRecord {
  op: LoadOp;
  ok: boolean;
  ms: number;
  /** The server answered 429 (a rate or in-flight limit): the flooder's own, never an error of the others. */
  limited: boolean;
  error?: string;
  /** A remember's memory id, as the server answered it (checked in the store after the run: a lost write). */
  id?: string;
}

export interface LoadClient {
  call(op: LoadOp, args: Record<string, unknown>): Promise<CallRecord>;
  /** Many calls in one POST (a JSON-RPC batch), each answered on its own. */
  batch(op: LoadOp, args: Record<string, unknown>[]): Promise<CallRecord[]>;
  close(): Promise<void>;
}

/**
 * `timeoutMs`: how long a call may take before the client gives up (the SDK's default is 60 s; a
 * 100k store's first recall or a reflect on a loaded machine takes longer).
 */
export async function connectLoadClient(url: string, token: string, name: string, opts: { timeoutMs?: number } = {}): Promise<LoadClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(transport);
  return {
    async call(op, args) {
      const t0 = performance.now();
      try {
        const result = (await client.callTool({ name: op, arguments: args }, undefined, opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : undefined)) as CallToolResult;
        const ms = performance.now() - t0;
        const id = (result.structuredContent as { id?: unknown } | undefined)?.id;
        if (!result.isError) return { op, ok: true, ms, limited: false, ...(typeof id === 'string' ? { id } : {}) };
        const text = result.content.find((c) => c.type === 'text');
        return { op, ok: false, ms, limited: false, error: text && 'text' in text ? String(text.text) : 'a tool error without text' };
      } catch (err) {
        const ms = performance.now() - t0;
        const limited = err instanceof StreamableHTTPError && err.code === 429;
        return { op, ok: false, ms, limited, error: err instanceof Error ? err.message : String(err) };
      }
    },
    async batch(op, argsList) {
      const t0 = performance.now();
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId ?? '', 'mcp-protocol-version': transport.protocolVersion ?? '2025-03-26' };
      const body = JSON.stringify(argsList.map((args, i) => ({ jsonrpc: '2.0', id: `${name}-${nextBatchId++}-${i}`, method: 'tools/call', params: { name: op, arguments: args } })));
      try {
        const res = await fetch(url, { method: 'POST', headers, body });
        const text = await res.text();
        const ms = performance.now() - t0;
        if (res.status !== 200) return argsList.map(() => ({ op, ok: false, ms, limited: res.status === 429, error: `HTTP ${res.status}: ${text.slice(0, 200)}` }));
        const answers = [...text.matchAll(/^data: ?(.+)$/gm)].map((m) => m[1]!.trim()).filter(Boolean).flatMap((d) => [JSON.parse(d) as unknown].flat()) as { result?: CallToolResult; error?: { message: string; data?: { status?: number } } }[];
        const records: CallRecord[] = answers.map((a) => (a.result && !a.result.isError ? { op, ok: true, ms, limited: false } : { op, ok: false, ms, limited: a.error?.data?.status === 429, error: a.error?.message ?? 'a tool error' }));
        while (records.length < argsList.length) records.push({ op, ok: false, ms, limited: false, error: 'no answer in the batch' });
        return records;
      } catch (err) {
        const ms = performance.now() - t0;
        return argsList.map(() => ({ op, ok: false, ms, limited: false, error: err instanceof Error ? err.message : String(err) }));
      }
    },
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

let nextBatchId = 1;

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A memory an engineering agent might write: new wording each time, so most are new rows, not reinforcements. */
export function rememberArgs(rand: () => number, agent: number, n: number): Record<string, unknown> {
  const svc = pick(rand, SERVICES);
  return {
    content: `${svc} in ${pick(rand, ENVS)} ${pick(rand, SYMPTOMS)} because of ${pick(rand, CAUSES)} (load agent ${agent}, note ${n})`,
    tags: [pick(rand, TAGS), svc],
  };
}

/** A question in the demo store's vocabulary, so recall has real candidates to rank. */
export function recallArgs(rand: () => number): Record<string, unknown> {
  return { query: rand() < 0.5 ? `why did ${pick(rand, SERVICES)} ${pick(rand, SYMPTOMS)}` : `${pick(rand, SERVICES)} ${pick(rand, TAGS)} ${pick(rand, ENVS)}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An agent at a steady pace: one call every `intervalMs`, recall and remember in turn, from a
 * random offset within the first interval (so fifty agents do not fire in lockstep). A call that
 * overruns its slot delays the next one instead of bunching the missed ones into a burst.
 * Stops starting calls at `until` (performance.now() time) and resolves once its last call is answered;
 * `callsBefore` (its calls in earlier windows) keeps the turns going across windows.
 */
export async function pacedAgent(client: LoadClient, opts: { agent: number; intervalMs: number; until: number; rand: () => number; callsBefore: number }): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  let next = performance.now() + opts.rand() * opts.intervalMs;
  for (let n = opts.callsBefore; ; n++) {
    await sleep(Math.max(0, next - performance.now()));
    if (performance.now() >= opts.until) return calls;
    const op: LoadOp = n % 2 === 0 ? 'recall' : 'remember';
    calls.push(await client.call(op, op === 'recall' ? recallArgs(opts.rand) : rememberArgs(opts.rand, opts.agent, n)));
    next = Math.max(next + opts.intervalMs, performance.now());
  }
}

/**
 * Recall back to back, as fast as the server answers, until `until`; a 429 is honoured only by
 * trying again at once. With `batch` > 1, each POST is a JSON-RPC batch of that many recalls.
 */
export async function flood(client: LoadClient, opts: { until: number; rand: () => number; batch?: number }): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  const batch = opts.batch ?? 1;
  while (performance.now() < opts.until) {
    if (batch <= 1) calls.push(await client.call('recall', recallArgs(opts.rand)));
    else calls.push(...(await client.batch('recall', Array.from({ length: batch }, () => recallArgs(opts.rand)))));
  }
  return calls;
}
