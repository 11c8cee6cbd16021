/**
 * Fair shares of the one event loop between callers of the MCP HTTP endpoint.
 *
 * Every tool call runs on one thread against one store, mostly as synchronous SQLite and ranking
 * work, so requests that arrive together wait for each other. Served in arrival order, an agent
 * calling back to back takes as large a share of the loop as all the others together leave it,
 * and once the server is busy every other agent queues behind its calls. Here calls start through
 * a few slots instead, and when more wait than slots are free, the caller that has used the least
 * service time lately (decayed with a half-life) goes first: a flooding agent gets what the others
 * leave, never a turn ahead of them, and is never starved either (its usage decays while it waits).
 *
 * Priority alone still lets a flooder fill every moment the others leave idle, so each of their
 * calls would find one of its calls running and wait it out. So while a caller within its share is
 * using the server (a call in the last half-life), one past its share waits until its usage has
 * decayed back. Alone, a caller may use it all; and when every caller lately active is past its
 * share (eight agents all calling back to back), nobody is held back: there is no lighter caller
 * to keep room for, and holding them all would leave the workers idle while every call waits.
 *
 * Under the engine host, each session's calls run in one of several agent workers
 * (core/host/engine-host.ts). The slots are per worker (`pool`): a call waits for a slot of its own
 * worker, never for a call running in another one.
 *
 * A call that holds its slot past the lease is taken to be waiting on I/O (a remote embedder), not
 * working the loop, and stops counting against the slots, so one slow call never stalls the rest.
 * Time comes from the injected clock (epoch seconds); a timer only wakes the queue to look again.
 */
import type { Clock } from '../../core/clock.js';

export interface FairShareOptions {
  /** Calls running at once in one pool (one engine worker). */
  slots: number;
  /** How long a call counts against the slots. */
  leaseSeconds: number;
  /** How fast past usage is forgiven. */
  halfLifeSeconds: number;
  /** The share of the loop's time one caller may take while others use it too (0..1]. */
  maxShare: number;
}

/**
 * 5% of the loop is some ten times what an agent driving a model uses (a call every few seconds
 * of a few tens of milliseconds each); an agent alone on the server is not held back at all.
 */
export const DEFAULT_FAIR_SHARE: FairShareOptions = { slots: 2, leaseSeconds: 0.25, halfLifeSeconds: 10, maxShare: 0.05 };

/** Usage below this (seconds, decayed) counts as not using the server. */
const IDLE_USAGE = 1e-3;

interface Waiter {
  key: string;
  pool: string;
  start: (release: () => void) => void;
}

interface Lease {
  key: string;
  pool: string;
  startedAt: number;
  counted: boolean;
}

export class FairShare {
  private readonly waiting: Waiter[] = [];
  private readonly leases = new Set<Lease>();
  private readonly usage = new Map<string, { seconds: number; at: number }>();
  /** When each caller last started a call: a caller within its share counts as using the server for a half-life after. */
  private readonly lastStart = new Map<string, number>();
  private wake: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly opts: FairShareOptions,
    private readonly clock: Clock,
  ) {}

  /** Resolves when `key`'s call may start in `pool` (its engine worker), with the function to call once, when it has finished. */
  acquire(key: string, pool = 'default'): Promise<() => void> {
    return new Promise((start) => {
      this.waiting.push({ key, pool, start });
      this.pump();
    });
  }

  /** Calls waiting for a slot (for status and tests). */
  get queued(): number {
    return this.waiting.length;
  }

  /** `key`'s recent service time in seconds, decayed to now. */
  usageOf(key: string): number {
    const u = this.usage.get(key);
    return u ? u.seconds * 2 ** (-(this.clock.now() - u.at) / this.opts.halfLifeSeconds) : 0;
  }

  /** Forgets callers whose usage has decayed to nothing (run now and then, like the token buckets' prune). */
  prune(): void {
    for (const key of [...this.usage.keys()]) {
      if (this.usageOf(key) >= 1e-6) continue;
      this.usage.delete(key);
      this.lastStart.delete(key);
    }
  }

  private pump(): void {
    const now = this.clock.now();
    const counted = new Map<string, number>();
    for (const lease of this.leases) {
      if (lease.counted && now - lease.startedAt >= this.opts.leaseSeconds) lease.counted = false;
      if (lease.counted) counted.set(lease.pool, (counted.get(lease.pool) ?? 0) + 1);
    }
    for (;;) {
      const next = this.nextWaiter(now, (pool) => (counted.get(pool) ?? 0) < this.opts.slots);
      if (!next) break;
      const lease: Lease = { key: next.key, pool: next.pool, startedAt: now, counted: true };
      this.leases.add(lease);
      counted.set(next.pool, (counted.get(next.pool) ?? 0) + 1);
      this.lastStart.set(next.key, now);
      let released = false;
      next.start(() => {
        if (released) return;
        released = true;
        this.leases.delete(lease);
        // Charged at most the lease: past it the call was not holding the loop (or was one
        // expensive call, like the first recall building the indexes, not a flood).
        this.charge(lease.key, Math.min(this.clock.now() - lease.startedAt, this.opts.leaseSeconds));
        this.pump();
      });
    }
    this.scheduleWake(now);
  }

  /** Usage (decayed seconds) at which a caller that shares the server has taken its maximum share. */
  private get budget(): number {
    // A caller busy a fraction f of the time settles at f · halfLife / ln 2 of decayed usage.
    return (this.opts.maxShare * this.opts.halfLifeSeconds) / Math.LN2;
  }

  /**
   * Whether `key` may start a call now: within its share; or past it, when no caller within its
   * share has used the server lately (alone, or every active caller is past its share too).
   */
  private withinShare(key: string, now: number): boolean {
    if (this.usageOf(key) < this.budget) return true;
    for (const other of this.usage.keys()) {
      if (other === key) continue;
      const u = this.usageOf(other);
      if (u >= IDLE_USAGE && u < this.budget && now - (this.lastStart.get(other) ?? -Infinity) < this.opts.halfLifeSeconds) return false;
    }
    return true;
  }

  /** The eligible waiter (a free slot in its pool, within its share) whose caller has used the least lately, the earliest among equals; undefined when none may start. */
  private nextWaiter(now: number, slotFree: (pool: string) => boolean): Waiter | undefined {
    let best = -1;
    let bestUsage = Infinity;
    for (let i = 0; i < this.waiting.length; i++) {
      const w = this.waiting[i]!;
      const u = this.usageOf(w.key);
      if (u < bestUsage && slotFree(w.pool) && this.withinShare(w.key, now)) {
        best = i;
        bestUsage = u;
      }
    }
    return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
  }

  private charge(key: string, seconds: number): void {
    this.usage.set(key, { seconds: this.usageOf(key) + Math.max(0, seconds), at: this.clock.now() });
  }

  /**
   * With calls still waiting, looks again when the next one may start: when the oldest counted
   * lease runs out (full slots), when a caller over its share is back within it, or when a caller
   * within its share has gone a half-life without a call (it no longer holds the others back).
   */
  private scheduleWake(now: number): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    if (this.waiting.length === 0) return;
    let earliest = Infinity;
    for (const lease of this.leases) if (lease.counted) earliest = Math.min(earliest, lease.startedAt + this.opts.leaseSeconds);
    for (const w of this.waiting) {
      const u = this.usageOf(w.key);
      if (u >= this.budget) earliest = Math.min(earliest, now + this.opts.halfLifeSeconds * Math.log2(u / this.budget));
    }
    for (const [key, at] of this.lastStart) {
      const quietFrom = at + this.opts.halfLifeSeconds;
      if (quietFrom > now && this.usageOf(key) < this.budget) earliest = Math.min(earliest, quietFrom);
    }
    if (earliest === Infinity) return;
    this.wake = setTimeout(() => this.pump(), Math.max(1, (earliest - now) * 1000));
    this.wake.unref();
  }
}
