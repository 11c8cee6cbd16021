/**
 * The engine: one open store plus what it needs to act (clock, embedder, derived indexes).
 * Every door (API, CLI, MCP, library) works through an Engine.
 */
import { systemClock, type Clock } from '../clock.js';
import type { Embedder } from '../embed/embedder.js';
import { HashingEmbedder } from '../embed/hashing.js';
import { embedderFromEnv } from '../embed/openai.js';
import { MnemoError } from '../errors.js';
import { LiveVectors } from '../embed/live-vectors.js';
import type { OpenOptions } from '../store/sqlite/sqlite-store.js';
import { openStoreAsOf, openStoreAt, type OpenedStore } from '../store/open-location.js';
import { Derived } from '../store/derived/derived.js';
import { IndexSnapshots, type IndexSnapshotOptions } from '../store/derived/index-snapshots.js';
import type { ProfileName, StoreReader, StoreWriter } from '../store/port/port.js';
import { defaultProfile } from '../store/queries/saved-profiles.js';

/**
 * Names a per-engine singleton owned by another module (an index, the belief model, the plans under
 * review): how to create it on first use and, when it holds resources, how to release them when the
 * engine closes. The key's type carries the value's, so `engine.get(KEY)` needs no cast; the key
 * object itself is the identity (two modules cannot collide on a name), the name is for people.
 */
export interface ExtensionKey<T> {
  readonly name: string;
  readonly create: (engine: Engine) => T;
  readonly dispose: ((value: T) => void) | null;
}

/** Declare it next to what it creates: `const X = extensionKey('x', (e) => new X(e), (x) => x.close())`. */
export function extensionKey<T>(name: string, create: (engine: Engine) => T, dispose?: (value: T) => void): ExtensionKey<T> {
  return { name, create, dispose: dispose ?? null };
}

export interface EngineOptions extends OpenOptions {
  embedder?: Embedder;
  /** Overrides the profile recorded in the store (for experiments and conformance runs). */
  profile?: ProfileName;
  /** Derived-index snapshots in the sidecar beside the store (docs/indexes.md): on/off, build reports. */
  indexSnapshots?: IndexSnapshotOptions;
  /** A PostgreSQL store's read replicas (docs/postgres.md, "Replicas"); default MNEMO_PG_REPLICAS. */
  replicas?: readonly string[];
}

/**
 * An engine as a path that only reads sees it: the same engine, its store typed as the read side
 * of the port (core/store/port/port.ts), so a write from a read path (recall's ranking, explain, the
 * stats, graph and list views) does not compile. Every Engine is one.
 */
export type EngineReader = Omit<Engine, 'store'> & { readonly store: StoreReader };

export class Engine {
  readonly store: StoreWriter;
  readonly clock: Clock;
  readonly embedder: Embedder;
  readonly vectors: Derived<LiveVectors>;
  /** The sidecar of persisted derived indexes, and where their rebuilds are reported. */
  readonly indexSnapshots: IndexSnapshots;
  private readonly profileOverride: ProfileName | undefined;
  private readonly extensions = new Map<ExtensionKey<unknown>, unknown>();

  private constructor(store: OpenedStore, opts: EngineOptions) {
    this.store = store;
    this.clock = store.clock;
    this.embedder = opts.embedder ?? new HashingEmbedder(store.dim);
    this.indexSnapshots = new IndexSnapshots(store, opts.indexSnapshots);
    const freshVectors = () => new LiveVectors(this.embedder.dim, this.embedder.name);
    this.vectors = new Derived(store, freshVectors(), { name: 'embed.vectors', snapshots: this.indexSnapshots, fresh: freshVectors });
    this.profileOverride = opts.profile;
  }

  static open(path: string, opts: EngineOptions = {}): Engine {
    const embedder = opts.embedder ?? embedderFromEnv() ?? undefined;
    const dim = embedder?.dim ?? opts.dim ?? 256;
    const store = openStoreAt(path, { ...opts, clock: opts.clock ?? systemClock, dim });
    // The sidecar of index snapshots is a file beside a SQLite store, and in this machine's cache
    // folder for a PostgreSQL store (its engines may run on many machines: pg-index-cache.ts).
    return Engine.checked(store, { ...opts, ...(embedder ? { embedder } : {}) });
  }

  /**
   * An engine on the store as it stood at instant `at` (MemoryStore.openAsOf): read-only, and its
   * clock stopped at `at` (recency, idle time and retention read as they did then) unless nothing
   * changed after `at`, when it is the store as it is now and keeps the caller's clock.
   */
  static openAsOf(path: string, at: number, opts: Omit<EngineOptions, 'readonly' | 'convert' | 'create'> = {}): Engine {
    const embedder = opts.embedder ?? embedderFromEnv() ?? undefined;
    const dim = embedder?.dim ?? opts.dim ?? 256;
    const store = openStoreAsOf(path, at, { ...opts, clock: opts.clock ?? systemClock, dim });
    // The sidecar holds the live store's indexes (its text search is patched in place): an engine on
    // the past builds its own in memory, so it can neither read the present nor write the past there.
    return Engine.checked(store, { ...opts, ...(embedder ? { embedder } : {}), indexSnapshots: { ...opts.indexSnapshots, enabled: false } });
  }

  /** The engine on an opened store, once its embedder is known to match the store's; the store is closed if not. */
  private static checked(store: OpenedStore, opts: EngineOptions): Engine {
    const engine = new Engine(store, opts);
    try {
      engine.checkEmbedder();
    } catch (err) {
      store.close();
      throw err;
    }
    return engine;
  }

  /** A store's vectors only compare with vectors from the same embedder: refuse a mix. */
  private checkEmbedder(): void {
    const recorded = this.store.getMeta('embedder');
    if (recorded && recorded !== this.embedder.name) {
      throw new MnemoError(
        'bad_input',
        `${this.store.path} was embedded with ${recorded}, but this session uses ${this.embedder.name}; configure the same embedder (MNEMO_EMBED_*), or re-embed into a new store`,
      );
    }
    if (!recorded && this.store.hasMnemo() && !this.store.readonly) this.recordEmbedder();
  }

  /** Records the session's embedder as the store's; a role that may not write settings (an agent's database role) leaves it to an operator. */
  private recordEmbedder(): void {
    try {
      this.store.setMeta('embedder', this.embedder.name);
    } catch (err) {
      if (!(err instanceof MnemoError && err.code === 'permission')) throw err;
      this.store.warn('embedder-unrecorded', `${this.store.path} does not record its embedder yet and this role may not write store settings; an operator's next open records it`);
    }
  }

  get path(): string {
    return this.store.path;
  }

  now(): number {
    return this.clock.now();
  }

  profile(): ProfileName {
    return this.profileOverride ?? defaultProfile(this.store);
  }

  /** The engine's instance of a per-engine singleton (see ExtensionKey), created on first use. */
  get<T>(key: ExtensionKey<T>): T {
    if (this.extensions.has(key as ExtensionKey<unknown>)) return this.extensions.get(key as ExtensionKey<unknown>) as T;
    const value = key.create(this);
    this.extensions.set(key as ExtensionKey<unknown>, value);
    return value;
  }

  /** Embeds text with the configured embedder (sync when it can be). */
  async embed(text: string): Promise<Float32Array> {
    if (this.embedder.embedSync) return this.embedder.embedSync(text);
    const [v] = await this.embedder.embed([text]);
    return v!;
  }

  close(): void {
    this.vectors.dispose();
    for (const [key, value] of this.extensions) key.dispose?.(value);
    this.extensions.clear();
    // After the indexes: they finish or write their snapshots as they close.
    this.indexSnapshots.close();
    this.store.close();
  }
}
