/**
 * How `mnemo mcp --http` shares its event loop between callers (cli/mcp/http-fair-share.ts):
 * calls start through a few slots, the caller with the least recent service goes first, past
 * usage is forgiven with time, and a call that holds its slot past the lease stops blocking others.
 */
import { describe, expect, it } from 'vitest';
import { FairShare } from '../../cli/mcp/http-fair-share.js';
import { movableClock } from '../helpers/agents.js';

/** Acquires for `key` and records the order in which calls start. */
function starter(share: FairShare, started: string[]) {
  return (key: string) =>
    share.acquire(key).then((release) => {
      started.push(key);
      return release;
    });
}

const settle = () => new Promise((r) => setImmediate(r));

/** Each caller in turn runs one call of the given seconds (their recent usage, before a test looks). */
async function usedBefore(share: FairShare, clock: ReturnType<typeof movableClock>, uses: [string, number][]): Promise<void> {
  for (const [key, seconds] of uses) {
    const release = await share.acquire(key);
    clock.advance(seconds);
    release();
  }
}

/** On a share with two free slots: a and b start at once, c waits, and starts when a finishes. */
async function twoStartThirdWaits(share: FairShare): Promise<void> {
  const started: string[] = [];
  const start = starter(share, started);
  const a = start('a');
  const b = start('b');
  void start('c');
  await settle();
  expect(started).toEqual(['a', 'b']);
  expect(share.queued).toBe(1);
  (await a)();
  await settle();
  expect(started).toEqual(['a', 'b', 'c']);
  (await b)();
}

describe('fair shares of the event loop', () => {
  it('starts calls at once while slots are free, and the next one when a call finishes', async () => {
    await twoStartThirdWaits(new FairShare({ slots: 2, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 1 }, movableClock(0)));
  });

  it('lets the caller that used the least service lately go first, whatever the arrival order', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 1, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 1 }, clock);
    // The flooder has just used 3 s of service; the polite agent 0.1 s.
    await usedBefore(share, clock, [
      ['flooder', 3],
      ['polite', 0.1],
    ]);
    const started: string[] = [];
    const start = starter(share, started);
    expect(share.usageOf('flooder')).toBeCloseTo(3 * 2 ** (-0.1 / 10), 5); // decayed over the polite call's 0.1 s
    // Both wait behind a running call; the flooder asked first.
    const running = await start('other');
    void start('flooder');
    void start('polite');
    running();
    await settle();
    expect(started.slice(1)).toEqual(['polite']);
  });

  it('forgives past usage with the half-life, so a caller that waits is not starved', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 1, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 1 }, clock);
    const release = await share.acquire('a');
    clock.advance(4);
    release();
    clock.advance(10);
    expect(share.usageOf('a')).toBeCloseTo(2, 5);
    clock.advance(1000);
    share.prune();
    expect(share.usageOf('a')).toBe(0);
  });

  it('charges a call at most the lease, so one long call (the first recall building the indexes) does not hold its caller back', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 1, leaseSeconds: 0.25, halfLifeSeconds: 10, maxShare: 0.05 }, clock);
    const release = await share.acquire('a');
    clock.advance(30);
    release();
    expect(share.usageOf('a')).toBe(0.25);
  });

  it('stops counting a call against the slots once it has held one past the lease', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 1, leaseSeconds: 0.25, halfLifeSeconds: 10, maxShare: 1 }, clock);
    const started: string[] = [];
    const start = starter(share, started);
    const slow = await start('slow');
    const next = start('next');
    await settle();
    expect(started).toEqual(['slow']);
    clock.advance(0.3);
    // The next look at the queue (here another caller's arrival) finds the lease run out.
    void start('third');
    void start('fourth');
    await settle();
    expect(started).toEqual(['slow', 'next']);
    slow();
    await settle();
    expect(started).toEqual(['slow', 'next']);
    // A call released twice frees its slot once.
    const releaseNext = await next;
    releaseNext();
    releaseNext();
    await settle();
    expect(started).toEqual(['slow', 'next', 'third']);
  });

  it('holds a caller to its share while others use the server, and not when it is alone', async () => {
    const clock = movableClock(0);
    // Budget: 5% over a 10 s half-life settles at 0.05 · 10 / ln 2 ≈ 0.72 s of decayed usage.
    const share = new FairShare({ slots: 2, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 0.05 }, clock);
    const started: string[] = [];
    const start = starter(share, started);
    const use = async (key: string, seconds: number) => {
      const release = await start(key);
      clock.advance(seconds);
      release();
    };
    // Alone, the flooder takes what it wants.
    await use('flooder', 1);
    await use('flooder', 1);
    expect(started).toEqual(['flooder', 'flooder']);
    // Once another agent uses the server, the flooder (≈2 s used) waits though slots are free.
    await use('polite', 0.05);
    void start('flooder');
    await settle();
    expect(started).toEqual(['flooder', 'flooder', 'polite']);
    expect(share.queued).toBe(1);
    await use('polite', 0.05);
    expect(started.at(-1)).toBe('polite');
    // Back within its share once its usage has decayed (2 s → 0.72 s takes about 15 s).
    clock.advance(16);
    void start('polite');
    await settle();
    expect(started.slice(-2).sort()).toEqual(['flooder', 'polite']);
  });

  it('holds nobody back when every caller lately active is past its share, so the workers never idle while calls wait', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 2, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 0.05 }, clock);
    // Three agents calling back to back: each has used about 1 s lately, past the 0.72 s budget.
    await usedBefore(share, clock, [
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ]);
    // Held to their shares, none would start. They run as if no share applied: the least used
    // lately (a, whose second has decayed longest) first, and the third waits only for a slot.
    await twoStartThirdWaits(share);
  });

  it('lets a caller past its share go on once the lighter caller has made no call for a half-life', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 2, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 0.05 }, clock);
    await usedBefore(share, clock, [
      ['flooder', 3],
      ['polite', 0.05],
    ]);
    const started: string[] = [];
    const start = starter(share, started);
    void start('flooder');
    await settle();
    expect(started).toEqual([]);
    // 10 s after the polite call started, it no longer counts as using the server; the flooder (3 s
    // decayed to 1.5 s, still past its share) starts at the next look.
    clock.advance(10);
    void start('third');
    await settle();
    expect(started.sort()).toEqual(['flooder', 'third']);
  });

  it('counts slots per worker: a call waits for its own worker, never for a call running in another', async () => {
    const clock = movableClock(0);
    const share = new FairShare({ slots: 1, leaseSeconds: 60, halfLifeSeconds: 10, maxShare: 1 }, clock);
    const started: string[] = [];
    const start = (key: string, pool: string) =>
      share.acquire(key, pool).then((release) => {
        started.push(`${key}@${pool}`);
        return release;
      });
    const first = start('a', 'w0');
    void start('b', 'w0');
    void start('c', 'w1');
    await settle();
    expect(started).toEqual(['a@w0', 'c@w1']);
    (await first)();
    await settle();
    expect(started).toEqual(['a@w0', 'c@w1', 'b@w0']);
  });
});
