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
 * calls would find one of its calls running and wait it out. So while anyone else is using the
 * server, one caller may take at most `maxShare` of the loop's time (measured over the half-life);
 * past it, its calls wait until its usage has decayed back. Alone, a caller may use it all.
 *
 * A call that holds its slot past the lease is taken to be waiting on I/O (a remote embedder), not
 * working the loop, and stops counting against the slots, so one slow call never stalls the rest.
 * Time comes from the injected clock (epoch seconds); a timer only wakes the queue to look again.
 */
import type { Clock } from '../../core/clock.js';

export interface FairShareOptions {
  /** Calls running at once. */
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
  start: (release: () => void) => void;
}

interface Lease {
  key: string;
  startedAt: number;
  counted: boolean;
}

export class FairShare {
  private readonly waiting: Waiter[] = [];
  private readonly leases = new Set<Lease>();
  private readonly usage = new Map<string, { seconds: number; at: number }>();
  private wake: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly opts: FairShareOptions,
    private readonly clock: Clock,
  ) {}

  /** Resolves when `key`'s call may start, with the function to call once, when it has finished. */
  acquire(key: string): Promise<() => void> {
    return new Promise((start) => {
      this.waiting.push({ key, start });
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
    for (const key of [...this.usage.keys()]) if (this.usageOf(key) < 1e-6) this.usage.delete(key);
  }

  private pump(): void {
    const now = this.clock.now();
    let counted = 0;
    for (const lease of this.leases) {
      if (lease.counted && now - lease.startedAt >= this.opts.leaseSeconds) lease.counted = false;
      if (lease.counted) counted++;
    }
    while (counted < this.opts.slots) {
      const next = this.nextWaiter();
      if (!next) break;
      const lease: Lease = { key: next.key, startedAt: now, counted: true };
      this.leases.add(lease);
      counted++;
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

  /** Whether `key` may start a call now: under its share, or alone on the server. */
  private withinShare(key: string): boolean {
    if (this.usageOf(key) < this.budget) return true;
    for (const other of this.usage.keys()) if (other !== key && this.usageOf(other) >= IDLE_USAGE) return false;
    return true;
  }

  /** The eligible waiter whose caller has used the least lately, the earliest among equals; undefined when none may start. */
  private nextWaiter(): Waiter | undefined {
    let best = -1;
    let bestUsage = Infinity;
    for (let i = 0; i < this.waiting.length; i++) {
      const key = this.waiting[i]!.key;
      const u = this.usageOf(key);
      if (u < bestUsage && this.withinShare(key)) {
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
   * lease runs out (full slots), or when a caller over its share is back within it.
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
    if (earliest === Infinity) return;
    this.wake = setTimeout(() => this.pump(), Math.max(1, (earliest - now) * 1000));
    this.wake.unref();
  }
}
