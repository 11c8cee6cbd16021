/**
 * A client polling one call at a steady interval, as a view's refetch does: it waits for each
 * answer before the next tick (never two of its calls at once), and keeps every call's latency, so
 * a call that waited seconds shows as one long latency, not as calls that never happened.
 */
import { maxOf, percentile } from './stats.js';

export interface Poll {
  ms: number;
  ok: boolean;
  error?: string;
  /** When the call started, in ms from the start of what it was measured during (where a caller records it). */
  at_ms?: number;
}

export interface Poller {
  /** Stops after the call under way; resolves with every call made since start (or the last take). */
  stop(): Promise<Poll[]>;
  /** The calls made since start (or the last take), and starts counting afresh. */
  take(): Poll[];
}

export function startPoller(intervalMs: number, call: () => Promise<{ ok: boolean; error?: string }>): Poller {
  let polls: Poll[] = [];
  let stopped = false;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const loop = (async () => {
    let next = performance.now();
    while (!stopped) {
      const t0 = performance.now();
      let r: { ok: boolean; error?: string };
      try {
        r = await call();
      } catch (err) {
        r = { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      polls.push({ ms: performance.now() - t0, ok: r.ok, ...(r.error ? { error: r.error } : {}) });
      next = Math.max(next + intervalMs, performance.now());
      await sleep(next - performance.now());
    }
  })();
  return {
    take: () => {
      const out = polls;
      polls = [];
      return out;
    },
    stop: async () => {
      stopped = true;
      await loop;
      return polls;
    },
  };
}

export interface LatencyFigures {
  calls: number;
  errors: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  first_error?: string;
}

const round = (x: number) => Math.round(x * 10) / 10;

/** Latency figures over every call, failed ones included (a refusal after a long wait is still a wait). */
export function latencyFigures(polls: readonly Poll[]): LatencyFigures {
  const ms = polls.map((p) => p.ms);
  const failed = polls.find((p) => !p.ok);
  return {
    calls: polls.length,
    errors: polls.filter((p) => !p.ok).length,
    p50_ms: ms.length ? round(percentile(ms, 0.5)) : null,
    p99_ms: ms.length ? round(percentile(ms, 0.99)) : null,
    max_ms: ms.length ? round(maxOf(ms)) : null,
    ...(failed?.error ? { first_error: failed.error } : {}),
  };
}
