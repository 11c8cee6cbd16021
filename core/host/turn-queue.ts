/**
 * Starts the calls a worker reads off its port one per turn of its event loop.
 *
 * A worker's port hands it every message waiting, one after another, in a single turn of the loop
 * (Node reads a port until it is empty, up to a thousand messages). An agents' worker serves four
 * sessions that each send their next call the moment the last is answered, so its port is never
 * empty: run as they were read, the calls kept the loop in that one turn for as long as the agents
 * kept calling, and no timer of the worker ran meanwhile. Its watch for another thread's index
 * hand-over (index-snapshots.ts) looks at the store's marker from a timer: beside eight busy agents
 * it looked once in three to six seconds, missed the five seconds the writer held its marker, and
 * every agent then waited for its indexes to load after a reflect (measured at 20k and at 100k).
 * Measured on a bare worker with four calls of 5 ms always waiting: a 10 ms timer ran once in a
 * second when calls ran as read, 97 times when each started on a turn of its own.
 *
 * Started in turn, each call is begun in the order it came, as before; a call that awaits (a long
 * job between its batches) lets the next begin, as before. Only the timers and the loads queued
 * between calls (setImmediate) now get their turn between two calls.
 */
export class TurnQueue {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  /** Begins `start` on a later turn of the loop, after every call queued before it. */
  push(start: () => void): void {
    this.waiting.push(start);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => this.startNext());
  }

  private startNext(): void {
    this.scheduled = false;
    const start = this.waiting.shift();
    try {
      start?.();
    } catch (err) {
      this.onError(err);
    }
    // An immediate queued while the loop runs the immediates waits for the loop's next turn: timers run first.
    this.schedule();
  }
}
