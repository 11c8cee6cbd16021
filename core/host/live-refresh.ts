/**
 * Live refresh, shared by the HTTP server and the Electron main process: polls the store's
 * `PRAGMA data_version` (which moves when ANOTHER connection commits) and counts our own mutations,
 * bumping one generation number the UI waits on. Open views refetch when it moves.
 *
 * Where the store can say when someone commits (PostgreSQL's notifications, Store.watchCommits),
 * a commit also wakes a check at once: the poll then only covers a lost notification. Wake-ups
 * arriving together (eight agents committing in the same few milliseconds) make one check.
 */
import type { ApiSession } from '../api/context.js';
import type { StoreReader } from '../store/port/port.js';
import { Generation } from './generation.js';

/** Wake-ups within this long of the first make one check. */
const WAKE_COALESCE_MS = 15;

export type { GenerationListener } from './generation.js';

/** A Generation that also moves when another connection commits to the session's store; bump() after our own writes (they do not move our connection's data_version). */
export class LiveRefresh extends Generation {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The store whose commits wake a check, and how to stop hearing them. */
  private watched: { store: StoreReader; stop: (() => void) | null } | null = null;
  private wakePending = false;

  constructor(
    private readonly session: ApiSession,
    private readonly intervalMs = 400,
  ) {
    super();
  }

  /** One poll: true when another process committed since the last look. */
  check(): boolean {
    if (!this.session.hasEngine) return false;
    let changed: boolean;
    try {
      const store = this.session.engine().store;
      this.watch(store);
      changed = store.refreshIfChanged();
    } catch {
      return false; // a busy or closing store: try again on the next tick
    }
    if (changed) this.bump();
    return changed;
  }

  /** Hears the commits of the session's current store (a store opened since replaces the one watched). */
  private watch(store: StoreReader): void {
    if (this.watched?.store === store || !this.timer) return;
    this.watched?.stop?.();
    this.watched = { store, stop: store.watchCommits(() => this.wake()) };
  }

  private wake(): void {
    if (this.wakePending || !this.timer) return;
    this.wakePending = true;
    setTimeout(() => {
      this.wakePending = false;
      if (this.timer) this.check();
    }, WAKE_COALESCE_MS).unref?.();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.watched?.stop?.();
    this.watched = null;
    this.release();
  }
}
