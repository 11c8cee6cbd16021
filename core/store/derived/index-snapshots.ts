/**
 * An engine's persisted derived indexes: its index sidecar (index-sidecar.ts), opened on first use,
 * when snapshots are on, and where the derived indexes report a rebuild (so a CLI can say
 * "Building keyword index…" instead of going silent for seconds).
 *
 * Snapshots are on unless the engine is told otherwise or `MNEMO_INDEX_SNAPSHOTS=off` (the
 * benchmarks' baseline). They only ever apply to a store with a change feed: a snapshot is keyed
 * by the feed position it reflects.
 */
import type { Clock } from '../../clock.js';
import { IndexSidecar } from './index-sidecar.js';
import { announcedSnapshots } from './index-handoff.js';
import { RUN_MARKER_KEY } from '../shared/journal.js';
import type { FeedPosition, StoreReader } from '../port/port.js';

/** A persisted index of the engine, as derived.ts registers it. */
export interface PersistedIndexEntry {
  /** Writes its snapshot now, if it changed since the last one. */
  persist(): void;
  /**
   * Loads a second copy from the snapshot another process left at `at` (index-handoff.ts); returns
   * what is left to do for it (patching it up to the feed's end, reading ahead what its first use
   * would), each to run on a turn of its own.
   */
  prepare(at: FeedPosition): Array<() => void> | void;
  /** Patches the copy prepare() loaded up to the feed's end, if there is one. */
  topUp(): void;
}

/** A marker is looked at no more often than this from the calls' path (a meta read per call would do, but need not). */
const HANDOFF_CHECK_MS = 250;

/** A derived index starting a full rebuild, getting on with it (n of N rows), and finishing it. */
export interface IndexBuildEvent {
  /** The index's name (`recall.mnemo.bm25.porter`, …). */
  index: string;
  phase: 'start' | 'progress' | 'done';
  /** Live memories the build reads. */
  memories: number;
  /** Set when phase is `progress`: rows done of total (every few thousand rows). */
  done?: number;
  total?: number;
  /** Set when phase is `done`. */
  ms?: number;
}

/**
 * At close, for each index this process built: whether a snapshot of it is now in the sidecar (this
 * process's or another's), so the next process reads it instead of building; if not, why not.
 */
export interface IndexKeepEvent {
  index: string;
  /** Live memories it holds. */
  memories: number;
  kept: boolean;
  /** Set when not kept: why, in words for people. */
  reason?: string;
}

/** What people call each persisted index (the CLI's and the workbench's progress lines). */
const INDEX_LABELS: Record<string, string> = {
  'embed.vectors': 'vector index',
  'recall.corpus': 'recall corpus',
  'recall.mnemo.bm25.porter': 'keyword index',
  'recall.mnemo.bm25.plain': 'keyword index (unstemmed)',
  'recall.mnemo.entities': 'entity index',
  'recall.adjacency': 'link index',
  'recall.mnemo.part_of': 'part-of index',
  'review.conflicts': 'conflict index',
};

export const indexLabel = (index: string): string => INDEX_LABELS[index] ?? index;

export interface IndexSnapshotOptions {
  /** False: build every index in memory on open, as before snapshots (default: on unless MNEMO_INDEX_SNAPSHOTS=off). */
  enabled?: boolean;
  onBuild?: (e: IndexBuildEvent) => void;
  /** Told once at close, with each index built in this process: whether it was kept (IndexKeepEvent). */
  onKeep?: (kept: IndexKeepEvent[]) => void;
  /** Write the sidecar even when the store is open read-only (IndexSidecar.open's keepBesideReadOnly). */
  keepBesideReadOnly?: boolean;
  /**
   * Runs a piece of deferred work (a snapshot's next chunk) soon, off the current call's path;
   * returns a cancel. Default: setImmediate, unref'd.
   */
  defer?: (fn: () => void) => () => void;
  /** Runs work again later (a snapshot put off while a long change is being written); returns a cancel. Default: 1 s, unref'd. */
  retryLater?: (fn: () => void) => () => void;
  /**
   * How many times the usual number of changes (DerivedSnapshot) this process lets pass before it
   * writes a snapshot of its own (default 1). A process people watch (browser mode, the desktop
   * app) sets more: encoding an index holds its thread for a second or more on a big store, and
   * the agents writing beside it reach their due snapshots first, claim them (IndexSidecar.claim),
   * and so keep the shared sidecar current while the views never pause for it. Alone, it still
   * writes its own, later, and at close.
   */
  savePatience?: number;
}

/** savePatience for the processes people watch (browser mode, the desktop app). */
export const VIEWER_SAVE_PATIENCE = 4;

export function snapshotsEnabledByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.MNEMO_INDEX_SNAPSHOTS ?? '').trim().toLowerCase();
  return !(v === 'off' || v === '0' || v === 'false' || v === 'no');
}

const deferImmediate = (fn: () => void): (() => void) => {
  const handle = setImmediate(fn);
  handle.unref();
  return () => clearImmediate(handle);
};

const retryAfterASecond = (fn: () => void): (() => void) => {
  const handle = setTimeout(fn, 1000);
  handle.unref();
  return () => clearTimeout(handle);
};

export class IndexSnapshots {
  readonly enabled: boolean;
  readonly defer: (fn: () => void) => () => void;
  readonly retryLater: (fn: () => void) => () => void;
  readonly savePatience: number;
  private opened = false;
  private file: IndexSidecar | null = null;
  /** The engine's persisted indexes (derived.ts registers them). */
  private readonly entries = new Set<PersistedIndexEntry>();
  /** The hand-over being watched for or loaded (index-handoff.ts). */
  private handoff: { lastCheck: number; watching: (() => void) | null; preparedAt: FeedPosition | null; loading: (() => void) | null } = {
    lastCheck: -Infinity,
    watching: null,
    preparedAt: null,
    loading: null,
  };
  private readonly watchers = new Set<(e: IndexBuildEvent) => void>();
  private keepReports: IndexKeepEvent[] = [];

  constructor(
    private readonly store: StoreReader,
    private readonly opts: IndexSnapshotOptions = {},
  ) {
    this.enabled = opts.enabled ?? snapshotsEnabledByEnv();
    this.defer = opts.defer ?? deferImmediate;
    this.retryLater = opts.retryLater ?? retryAfterASecond;
    this.savePatience = Math.max(1, opts.savePatience ?? 1);
  }

  get clock(): Clock {
    return this.store.clock;
  }

  /** The sidecar, opened on first call; null when snapshots are off or the file cannot be used. */
  sidecar(): IndexSidecar | null {
    if (!this.enabled || this.store.isClosed) return null;
    if (!this.opened) {
      this.opened = true;
      this.file = IndexSidecar.open(this.store, { keepBesideReadOnly: this.opts.keepBesideReadOnly ?? false });
    }
    return this.file && !this.file.isClosed ? this.file : null;
  }

  /** The sidecar if a call has opened it already; never opens (nor creates) the file. */
  openedSidecar(): IndexSidecar | null {
    return this.opened && this.file && !this.file.isClosed ? this.file : null;
  }

  register(entry: PersistedIndexEntry): () => void {
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  /** Writes every index built or patched since its last snapshot, now and whole (see DerivedSnapshot.saveNow). */
  persistAllNow(): void {
    for (const entry of this.entries) entry.persist();
  }

  /**
   * Asked on each read of an index: when another process is writing a long change, watch its
   * marker (once a second, off the calls' path) until it announces its snapshots, then load them
   * into second copies, one index per turn of the event loop (index-handoff.ts).
   */
  checkHandoff(): void {
    if (!this.enabled || this.handoff.watching || this.store.isClosed) return;
    const now = performance.now();
    if (now - this.handoff.lastCheck < HANDOFF_CHECK_MS) return;
    this.handoff.lastCheck = now;
    this.lookAtMarker();
  }

  private lookAtMarker(): void {
    const h = this.handoff;
    h.watching = null;
    if (this.store.isClosed || this.entries.size === 0) return;
    let standing: boolean;
    let at: FeedPosition | null;
    try {
      standing = this.store.getMeta(RUN_MARKER_KEY) !== null;
      at = standing ? announcedSnapshots(this.store) : null;
    } catch {
      return; // a busy or closing store: the next read looks again
    }
    if (!standing) {
      h.preparedAt = null;
      return;
    }
    if (at && !(h.preparedAt && h.preparedAt.epoch === at.epoch && h.preparedAt.seq >= at.seq)) {
      h.preparedAt = at;
      this.eachPerTurn([...this.entries], (entry) => entry.prepare(at));
    } else if (at && !h.loading) {
      // Loaded: keep the copies following the feed while the marker stands. The others keep calling
      // during the hold and each call logs accesses; patched only at the swap, the copies would meet
      // the whole hold's accesses at once, in every worker, on the first call after the change.
      this.eachPerTurn([...this.entries], (entry) => entry.topUp());
    }
    h.watching = this.retryLater(() => this.lookAtMarker());
  }

  /**
   * One step per turn, so a call that arrives meanwhile waits for one step at most: an index's
   * load, then each step it says is left (its patch up to the feed's end, its read-ahead), then the
   * next index. At 100k beside eight agents, the corpus's load and patch in one turn held an agent
   * worker for 964 ms, and every agent on it waited that long.
   */
  private eachPerTurn(entries: PersistedIndexEntry[], work: (entry: PersistedIndexEntry) => Array<() => void> | void): void {
    this.handoff.loading?.();
    // An index's remaining steps go to the front, so they run before the next index's load.
    const pending: Array<() => void> = entries.map((entry) => () => {
      const left = work(entry);
      if (left) pending.unshift(...left);
    });
    const next = (): void => {
      this.handoff.loading = null;
      const step = pending.shift();
      if (!step || this.store.isClosed) return;
      try {
        step();
      } catch (err) {
        this.store.warn('index-handoff', `could not load or patch an index ahead from the snapshots another process left (${(err as Error).message}); it loads on the next call instead`);
      }
      this.handoff.loading = this.defer(next);
    };
    this.handoff.loading = this.defer(next);
  }

  reportBuild(e: IndexBuildEvent): void {
    this.opts.onBuild?.(e);
    for (const watcher of this.watchers) watcher(e);
  }

  /** Collected as the indexes close; told together when the engine closes (close()). */
  reportKeep(e: IndexKeepEvent): void {
    this.keepReports.push(e);
  }

  /** Follows the build reports besides `onBuild` (the API's progress for the workbench); returns an unwatch. */
  watch(fn: (e: IndexBuildEvent) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  close(): void {
    this.handoff.watching?.();
    this.handoff.loading?.();
    this.handoff.watching = this.handoff.loading = null;
    this.file?.close();
    this.file = null;
    const kept = this.keepReports;
    this.keepReports = [];
    if (kept.length) this.opts.onKeep?.(kept);
  }
}
