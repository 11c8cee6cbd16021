/**
 * Per-caller limits of the MCP HTTP endpoint, so one agent cannot starve the others:
 * - a token bucket per caller (requests per second with a burst), answered 429 + Retry-After;
 * - a bound on each caller's requests in flight, so a flooding agent queues at most that many
 *   calls ahead of everyone else's on the one event loop and the one store.
 * Time comes from the injected clock (epoch seconds), never from the wall directly.
 */
import type { Clock } from '../../core/clock.js';

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests a caller may make at once after being idle. */
  burst: number;
}

/** Far above what an agent driving a model makes (a handful of calls per turn), far below a flood. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 50, burst: 200 };
export const DEFAULT_MAX_IN_FLIGHT = 8;

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: Clock,
  ) {}

  take(key: string): Admission {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    const refilled = Math.min(this.limit.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.limit.perSecond);
    if (refilled >= 1) {
      this.buckets.set(key, { tokens: refilled - 1, at: now });
      return { ok: true };
    }
    this.buckets.set(key, { tokens: refilled, at: now });
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / this.limit.perSecond)) };
  }

  /** Forgets callers whose bucket has refilled (a full bucket is the same as none). */
  prune(): void {
    const now = this.clock.now();
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.limit.perSecond >= this.limit.burst) this.buckets.delete(key);
    }
  }
}

export class InFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts one more request for `key`, or returns false when it already has `max` running. */
  enter(key: string): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= this.max) return false;
    this.counts.set(key, n + 1);
    return true;
  }

  leave(key: string): void {
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n > 0) this.counts.set(key, n);
    else this.counts.delete(key);
  }

  running(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}
