/**
 * One field set's keyword lookups over the recall corpus (corpus.ts): its substring index, the
 * slots changed since it was built, recent tokens' matches, and when the index is built or
 * rebuilt (at once the first time, then in slices beside the old one).
 */
import type { SparseField } from './profile.js';
import { SubstringIndex, SubstringIndexBuild } from './substring-index.js';

const TOKEN_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * Tokens a view answers by scanning every slot's text before it builds its substring index. At
 * 100k memories a scan costs ~10 ms a token and the build most of a second (much of it touching
 * the index's fresh memory), so the first recall after opening a store answers without it and a
 * process that recalls a few times never pays for it. A process that will answer for hours (the
 * engine host's ranking lanes) sets 0, so the build is part of its first recall: counted from
 * there, it came a second into the agents' work and held every agent of the worker for that second.
 */
export const substringIndexPolicy = { scansBefore: 24 };
/** How long a slice of a substring index rebuild runs (buildSlice); tests shorten it to see a rebuild half done. */
export const substringBuildSlice = { ms: 4 };
/** A rebuild waits this many times the last build's time after it (rebuildDue): rebuilds take at most a tenth of the thread. */
const REBUILD_SPACING = 9;

export class KeywordView {
  index: SubstringIndex | null = null;
  /** The next index, rebuilt a slice at a time (buildSlice); the slots whose text changed after it read them. */
  build: { next: SubstringIndexBuild; changed: Set<number> } | null = null;
  /** When the last slice ended, and how long it ran: the next waits as long (half the thread stays the recalls'). */
  sliceEnded = 0;
  sliceMs = 0;
  /** The slices of the build in progress, in ms; and of the last one done, and when it was done (rebuildDue). */
  buildMs = 0;
  lastBuildMs = 0;
  lastBuildDone = 0;
  /** Tokens answered by scanning every slot's text, before the index was built. */
  scans = 0;
  /** The lower-cased text per slot (when the fields are more than the content), kept once made. */
  readonly texts: (string | undefined)[] = [];
  /** Slots whose text changed after the index was built (their postings are stale). */
  dirty = new Set<number>();
  /**
   * Recent tokens' matches over the indexed slots (LRU). Query vocabularies repeat heavily, and
   * a long common token costs milliseconds to verify; its bitset is a few kilobytes.
   */
  readonly cache = new Map<string, Uint32Array>();
  constructor(readonly fields: readonly SparseField[]) {}

  indexMatches(token: string): Uint32Array {
    let bits = this.cache.get(token);
    if (bits) {
      this.cache.delete(token); // refresh its LRU position
    } else {
      bits = new Uint32Array(this.index!.bitWords);
      this.index!.matchBits(token, bits);
      const limit = Math.max(64, Math.floor(TOKEN_CACHE_BYTES / bits.byteLength));
      while (this.cache.size >= limit) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(token, bits);
    return bits;
  }

  /**
   * A view's first index is built in one go: until it exists every token scans the texts
   * (~10 ms at 100k), so a first build spread over seconds cost the recalls meanwhile more in
   * all than the one wait it spares (measured at 100k with eight agents: the p99 of the ten
   * seconds after the warm-up 567.7 and 604.7 ms, against 247.5 built at once).
   */
  buildAtOnce(size: number, textOf: (slot: number) => string): void {
    const started = performance.now();
    const build = (this.build ??= { next: new SubstringIndexBuild(size, textOf), changed: new Set() });
    build.next.step(Infinity);
    this.finishBuild(started);
  }

  /**
   * A view's index is rebuilt once about 1 % of the slots are unindexed (dirty or added), and no
   * sooner than REBUILD_SPACING times its last build's own time after that build: a sliced
   * rebuild spans seconds, and during a reflection the changes made meanwhile were past the mark
   * again when it ended, so the next began at once and the agents' worker spent half its time
   * rebuilding (measured at 100k: 4,000 recalls over 300 ms during a pass, against 1,406). Until
   * then the dirty slots are checked by their text, a fraction of a millisecond a token.
   */
  rebuildDue(size: number): boolean {
    const unindexed = this.dirty.size + (size - this.index!.size);
    if (unindexed <= Math.max(512, size / 100)) return false;
    return performance.now() - this.lastBuildDone >= REBUILD_SPACING * this.lastBuildMs;
  }

  /**
   * Builds the view's next index (a rebuild) a slice further (SubstringIndexBuild says why not at
   * once); until it is done the view answers from its old index with the dirty slots checked, a
   * fraction of a millisecond a token. A slice takes a few milliseconds, and the next waits at
   * least as long: half the thread stays the recalls'. (Slices as long as the time since the last
   * one, up to 50 ms, made each recall meanwhile wait tens of milliseconds more.)
   */
  buildSlice(size: number, textOf: (slot: number) => string): void {
    const now = performance.now();
    if (this.build && now - this.sliceEnded < this.sliceMs) return;
    // Every slot's text, live or not: a slot brought back with its old text is not marked dirty.
    this.build ??= { next: new SubstringIndexBuild(size, textOf), changed: new Set() };
    const done = this.build.next.step(now + substringBuildSlice.ms);
    this.sliceEnded = performance.now();
    this.sliceMs = this.sliceEnded - now;
    this.buildMs += this.sliceMs;
    if (done) this.finishBuild(this.sliceEnded - this.buildMs);
  }

  /** Puts a finished build in as the view's index; `started`: when its work began, without the time between slices. */
  private finishBuild(started: number): void {
    this.sliceEnded = performance.now();
    this.lastBuildMs = this.sliceEnded - started;
    this.lastBuildDone = this.sliceEnded;
    this.buildMs = 0;
    this.index = this.build!.next.result();
    this.dirty = this.build!.changed;
    this.build = null;
    this.cache.clear();
  }
}
