/**
 * The pure rules of `mnemo mcp --http`: which Host and Origin are answered (DNS rebinding), which
 * addresses count as loopback, how a bearer token becomes a caller, the per-caller token bucket and
 * in-flight bound, and the bounded event store that lets a client resume a stream.
 */
import { describe, expect, it } from 'vitest';
import { allowedHostsFor, hostAllowed, isLoopbackAddress, originAllowed, withExtraHosts } from '../../server/security.js';
import { authenticate, bearerToken, tableVerifier, type AgentCredential } from '../../cli/mcp/http-auth.js';
import { InFlight, TokenBuckets } from '../../cli/mcp/http-limits.js';
import { BoundedEventStore } from '../../cli/mcp/event-store.js';
import { movableClock } from '../helpers/agents.js';

const credential = (id: string, owner: string, revoked_at: number | null = null): AgentCredential => ({ id, owner, scopes: [], label: null, created_at: 1, revoked_at });

describe('DNS-rebinding allow-list', () => {
  const allowed = allowedHostsFor('127.0.0.1', 4100);

  it('answers loopback names on the bound port only', () => {
    expect(hostAllowed('127.0.0.1:4100', allowed)).toBe(true);
    expect(hostAllowed('LOCALHOST:4100', allowed)).toBe(true);
    expect(hostAllowed('[::1]:4100', allowed)).toBe(true);
    expect(hostAllowed('127.0.0.1:4101', allowed)).toBe(false);
    expect(hostAllowed('evil.example.com', allowed)).toBe(false);
    expect(hostAllowed('evil.example.com:4100', allowed)).toBe(false);
    expect(hostAllowed(undefined, allowed)).toBe(false);
  });

  it('adds the bound address, but never a wildcard, and the names the operator adds', () => {
    expect(hostAllowed('10.0.0.5:4100', allowedHostsFor('10.0.0.5', 4100))).toBe(true);
    expect(hostAllowed('0.0.0.0:4100', allowedHostsFor('0.0.0.0', 4100))).toBe(false);
    const proxied = withExtraHosts(allowed, ['Mnemo.Example.org']);
    expect(hostAllowed('mnemo.example.org', proxied)).toBe(true);
    expect(hostAllowed('mnemo.example.org:443', proxied)).toBe(true);
    expect(originAllowed('https://mnemo.example.org', proxied)).toBe(true);
  });

  it('lets a request without Origin through, and a present Origin only when it names an allowed host', () => {
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed('http://127.0.0.1:4100', allowed)).toBe(true);
    expect(originAllowed('http://localhost:4100', allowed)).toBe(true);
    expect(originAllowed('http://evil.example.com', allowed)).toBe(false);
    expect(originAllowed('http://127.0.0.1:9999', allowed)).toBe(false);
    expect(originAllowed('null', allowed)).toBe(false);
    expect(originAllowed('file:///x', allowed)).toBe(false);
  });

  it('knows loopback addresses from the rest', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackAddress(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.com']) expect(isLoopbackAddress(h)).toBe(false);
  });
});

describe('authentication', () => {
  const verify = tableVerifier(new Map([
    ['tok-a', credential('c-a', 'coder@1')],
    ['tok-old', credential('c-old', 'coder@2', 100)],
  ]));

  it('reads only a well-formed Bearer header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it('a known token is its credential\'s owner; missing, wrong and revoked tokens are refused', async () => {
    expect(await authenticate('Bearer tok-a', verify, null)).toEqual({ ok: true, caller: { key: 'credential:c-a', owner: 'coder@1', credential: credential('c-a', 'coder@1') } });
    expect(await authenticate(undefined, verify, null)).toEqual({ ok: false, reason: 'missing' });
    expect(await authenticate('Bearer nope', verify, null)).toEqual({ ok: false, reason: 'invalid' });
    expect(await authenticate('Bearer tok-old', verify, null)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('--anonymous serves only requests without any Authorization; a bad token is still refused', async () => {
    expect(await authenticate(undefined, verify, 'tester@1')).toMatchObject({ ok: true, caller: { owner: 'tester@1', credential: null } });
    expect(await authenticate('Bearer nope', verify, 'tester@1')).toEqual({ ok: false, reason: 'invalid' });
    expect(await authenticate('Basic x', verify, 'tester@1')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('per-caller limits', () => {
  it('a bucket allows its burst, then refuses with the wait until the next token, then refills with time', () => {
    const clock = movableClock(1000);
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 }, clock);
    expect([1, 2, 3].map(() => buckets.take('a').ok)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    // Another caller is untouched by a's flood.
    expect(buckets.take('b').ok).toBe(true);
    clock.advance(0.5);
    expect(buckets.take('a').ok).toBe(true);
    expect(buckets.take('a').ok).toBe(false);
    clock.advance(10);
    expect([1, 2, 3, 4].map(() => buckets.take('a').ok)).toEqual([true, true, true, false]);
  });

  it('a slow refill tells the caller how many seconds to wait', () => {
    const buckets = new TokenBuckets({ perSecond: 0.1, burst: 1 }, movableClock(0));
    expect(buckets.take('a').ok).toBe(true);
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterSeconds: 10 });
  });

  it('in-flight requests are bounded per caller and freed as they finish', () => {
    const inFlight = new InFlight(2);
    expect(inFlight.enter('a')).toBe(true);
    expect(inFlight.enter('a')).toBe(true);
    expect(inFlight.enter('a')).toBe(false);
    expect(inFlight.enter('b')).toBe(true);
    inFlight.leave('a');
    expect(inFlight.running('a')).toBe(1);
    expect(inFlight.enter('a')).toBe(true);
  });
});

describe('resumable streams', () => {
  it('replays what followed the last seen event on the same stream, and keeps a bounded history', async () => {
    const store = new BoundedEventStore(3);
    const msg = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });
    const a1 = await store.storeEvent('s-a', msg(1));
    await store.storeEvent('s-b', msg(2));
    await store.storeEvent('s-a', msg(3));
    await store.storeEvent('s-a', msg(4));
    const sent: unknown[] = [];
    const stream = await store.replayEventsAfter(a1, { send: async (_id, m) => void sent.push(m) });
    expect(stream).toBe('s-a');
    expect(sent).toEqual([msg(3), msg(4)]);
    expect(await store.getStreamIdForEventId(a1)).toBe('s-a');
    expect(await store.getStreamIdForEventId('garbage')).toBeUndefined();
    await store.storeEvent('s-a', msg(5));
    const later: unknown[] = [];
    await store.replayEventsAfter(a1, { send: async (_id, m) => void later.push(m) });
    // msg(2) on the other stream and the oldest were dropped; the history holds three events.
    expect(later).toEqual([msg(3), msg(4), msg(5)]);
  });
});
