/**
 * The per-call gate of the MCP HTTP endpoint (cli/mcp/http-calls.ts), on a stand-in transport: each
 * call of one POST takes its own turn of the fair share (one slot: the second call of a batch runs
 * only once the first has answered), a refused call is answered with its own error and never reaches
 * the server, and every place and turn is given back when its answer goes out or the POST closes.
 *
 * What could go wrong: the batch running as one call (the bypass of issue 36), a refusal sent without
 * its id (the client cannot tell which call it was), a place never given back (the agent locked out).
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CallLimits, carrying, gateCalls, PostAdmissions } from '../../cli/mcp/http-calls.js';
import { FairShare } from '../../cli/mcp/http-fair-share.js';
import { InFlight, TokenBuckets } from '../../cli/mcp/http-limits.js';
import { movableClock } from '../helpers/agents.js';

const KEY = 'credential:cred-a';
const call = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'recall', arguments: { query: `q${id}` } } });
const settle = () => new Promise((r) => setTimeout(r, 10));

function fixture(opts: { burst?: number; maxInFlight?: number } = {}) {
  const clock = movableClock(1000);
  const inFlight = new InFlight(opts.maxInFlight ?? 10);
  const fairShare = new FairShare({ slots: 1, leaseSeconds: 1000, halfLifeSeconds: 10, maxShare: 1 }, clock);
  const buckets = new TokenBuckets({ perSecond: 1, burst: opts.burst ?? 100 }, clock);
  const limits = new CallLimits(buckets, inFlight, fairShare);
  const delivered: JSONRPCMessage[] = [];
  const sent: { message: JSONRPCMessage; relatedRequestId?: unknown }[] = [];
  const transport = {
    onmessage: (m: JSONRPCMessage) => void delivered.push(m),
    send: async (message: JSONRPCMessage, options?: { relatedRequestId?: unknown }) => void sent.push({ message, relatedRequestId: options?.relatedRequestId }),
  } as unknown as StreamableHTTPServerTransport;
  gateCalls(transport);
  /** One POST of `messages`, as the server admits them (the first on the token and place the request took on arrival). */
  const post = (messages: JSONRPCMessage[]) => {
    expect(buckets.take(KEY).ok).toBe(true);
    expect(inFlight.enter(KEY)).toBe(true);
    const admissions = new PostAdmissions(messages.map((m, i) => (i === 0 ? { ok: true as const, ticket: limits.held(KEY) } : limits.admit(KEY, 'id' in m))));
    for (const m of messages) transport.onmessage!(m, { authInfo: carrying(KEY, admissions) });
    return admissions;
  };
  const answer = (id: number) => transport.send({ jsonrpc: '2.0', id, result: { content: [] } });
  return { transport, inFlight, delivered, sent, post, answer };
}

describe('each call of a batch is admitted and run on its own', () => {
  it('takes its own turn of the fair share: the next call of the batch runs once the one before has answered', async () => {
    const f = fixture();
    f.post([call(1), call(2), call(3)]);
    await settle();
    expect(f.delivered.map((m) => (m as { id: number }).id)).toEqual([1]);
    expect(f.inFlight.running(KEY)).toBe(3);
    await f.answer(1);
    await settle();
    expect(f.delivered.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    await f.answer(2);
    await settle();
    await f.answer(3);
    expect(f.delivered).toHaveLength(3);
    expect(f.inFlight.running(KEY)).toBe(0);
  });

  it('a call refused by the in-flight bound is answered with its own error, its id, and never runs', async () => {
    const f = fixture({ maxInFlight: 2 });
    const admissions = f.post([call(1), call(2), call(3)]);
    await settle();
    const refusals = f.sent.filter((s) => 'error' in s.message);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ relatedRequestId: 3, message: { id: 3, error: { code: -32001, data: { status: 429 } } } });
    expect(refusals[0]!.message).toMatchObject({ error: { message: expect.stringMatching(/as many requests running/) } });
    // The POST closes (the client went away): every place and turn goes back, the waiting call's too.
    admissions.releaseAll();
    await settle();
    expect(f.inFlight.running(KEY)).toBe(0);
    expect(f.delivered.map((m) => (m as { id: number }).id)).not.toContain(3);
  });

  it('a notification takes a rate token but no place', async () => {
    const f = fixture({ burst: 2 });
    f.post([{ jsonrpc: '2.0', method: 'notifications/initialized' }, call(7), call(8)]);
    await settle();
    expect(f.delivered.map((m) => ('id' in m ? m.id : (m as { method: string }).method))).toEqual(['notifications/initialized', 7]);
    expect(f.sent.filter((s) => 'error' in s.message).map((s) => (s.message as { id: number }).id)).toEqual([8]);
    expect(f.inFlight.running(KEY)).toBe(1);
  });
});
