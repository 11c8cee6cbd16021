/**
 * How long a long job has left, from the pace it has actually kept: items done per second over a
 * recent window of its own progress reports, never from a plan of what it might do.
 *
 * Why a window and not the average since the start: a job's first seconds are often of another
 * kind (a reflection commit reads the whole store before it writes its first item), and its items
 * are not all alike (a merge costs more than a link). The average since the start carries those
 * seconds for the rest of the run: the commit's ETA said "about 525 min" while the first items came
 * in after a 12 s check. The window forgets them; its ETA follows the pace the job keeps now and
 * settles as that pace holds.
 *
 * Pure: the caller hands in the instants (milliseconds of a monotonic timer), so tests can drive it.
 */

/** The stretch of recent progress the pace is measured over. */
export const PACE_WINDOW_MS = 20_000;
/** No ETA before the job has been measured for this long (one batch and its pause, at least). */
export const MIN_MEASURED_MS = 1_500;
/** Samples closer together than this are merged: a fast job reports thousands a second. */
const SAMPLE_EVERY_MS = 100;

interface Sample {
  at: number;
  done: number;
}

export class ThroughputMeter {
  private samples: Sample[] = [];
  private done = 0;
  private total = 0;

  /** `done` of `total` at the instant `at`. `done` may only grow; a smaller value starts over. */
  note(done: number, total: number, at: number): void {
    if (done < this.done) this.samples = [];
    this.done = done;
    this.total = total;
    const last = this.samples[this.samples.length - 1];
    if (last && at - last.at < SAMPLE_EVERY_MS && this.samples.length > 1) last.done = done;
    else this.samples.push({ at, done });
    // Keep one sample older than the window, so the window is always covered end to end.
    while (this.samples.length > 2 && at - this.samples[1]!.at >= PACE_WINDOW_MS) this.samples.shift();
  }

  /** Items per second over the window, up to `at`; null until measured long enough and something moved. */
  rate(at: number): number | null {
    const first = this.samples[0];
    if (!first) return null;
    const span = at - first.at;
    const moved = this.done - first.done;
    if (span < MIN_MEASURED_MS || moved <= 0) return null;
    return (moved * 1000) / span;
  }

  /**
   * Whole seconds left at that pace (at least 1 while items remain); null without a pace, and while
   * the job has not said how many items it has (0 of 0): a reflection plan at a million memories
   * reads its vectors for half a minute before its first count, and "0 left" said "about 1 s".
   */
  etaSeconds(at: number): number | null {
    if (this.total <= 0) return null;
    const left = this.total - this.done;
    if (left <= 0) return 0;
    const r = this.rate(at);
    return r === null ? null : Math.max(1, Math.round(left / r));
  }
}
