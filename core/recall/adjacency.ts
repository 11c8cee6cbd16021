/**
 * Outgoing edges of every memory, in rowid order (nooa's tie order for fanout), held in memory
 * and kept in step with the store (Derived pattern). Spread reads a hundred or more adjacency
 * lists per hop; from memory that is a map lookup each instead of a SQL round trip per hop.
 * A delete removes the deleted memory's edges and, through the reverse map, the edges other
 * memories had into it (the store deletes those rows without telling their sources).
 *
 * Read back from a snapshot, a source's list becomes Edge objects when spread first asks for it:
 * a recall reads a few hundred of 75k lists, and making all 300k edges up front (and the reverse
 * map, which only a delete needs) cost more than reading the snapshot itself.
 */
import type { PersistableIndex } from '../store/derived/derived.js';
import type { EdgeType } from '../model/enums.js';
import type { Edge } from '../model/memory.js';
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type SnapshotParts, type StringEntries } from '../store/derived/snapshot-parts.js';
import type { StoreReader } from '../store/port/port.js';
import { readIndexedStrings, writeIndexedStrings, type StoredStrings } from '../store/derived/stored-strings.js';
import { allEdges } from '../store/queries/edge-sources.js';

/** The outgoing lists of a snapshot read back, made into Edge objects per source when asked for. */
class StoredEdges {
  constructor(
    /** The sources' ids as read (a source's place is found by its bytes' hash). */
    readonly sources: StoredStrings,
    private readonly starts: Float64Array,
    private readonly targets: StringEntries,
    private readonly types: StringEntries,
    /** Edges [from, to)'s weights and creation times, read from the snapshot when asked for. */
    private readonly weights: (from: number, to: number) => Float64Array,
    private readonly created: (from: number, to: number) => Float64Array,
  ) {}

  edgesOf(source: number): Edge[] {
    const from = this.starts[source]!;
    const to = this.starts[source + 1]!;
    const targets = this.targets.range(from, to);
    const types = this.types.range(from, to);
    const weights = this.weights(from, to);
    const created = this.created(from, to);
    const list: Edge[] = [];
    for (let k = 0; k < to - from; k++) list.push({ target_id: targets[k]!, type: types[k] as EdgeType, weight: weights[k]!, created_at: created[k]! });
    return list;
  }
}

export class Adjacency implements PersistableIndex {
  /** Edges only: an access changes none. */
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  readonly snapshotFormat = 'adjacency/2';
  /** Outgoing lists in memory (never empty); a source of `stored` is here once read or changed. */
  private out = new Map<string, Edge[]>();
  /** A snapshot read back: a source's list is read from it until `overridden` names the source. */
  private stored: StoredEdges | null = null;
  private readonly overridden = new Set<string>();
  /** The store a snapshot was read back for: a source's list read from a damaged part is read from it instead. */
  private source: StoreReader | null = null;
  /** target → sources with an edge into it; built on the first delete (only a delete needs it). */
  private into: Map<string, Set<string>> | null = null;

  /** Memories with outgoing edges. */
  get size(): number {
    return this.out.size + (this.stored ? this.stored.sources.length - this.overridden.size : 0);
  }

  snapshotConditions(): string {
    return '';
  }

  /** The outgoing lists as they are (their order is the fanout's tie order); the reverse map follows from them. */
  saveSnapshot(): SnapshotParts | null {
    const w = new PartsWriter();
    const lists = this.allLists();
    const srcs = [...lists.keys()];
    const edges = srcs.flatMap((src) => lists.get(src)!);
    if (!writeIndexedStrings(w, 'srcs', srcs) || !w.strings('targets', edges.map((e) => e.target_id)) || !w.strings('types', edges.map((e) => e.type))) return null;
    w.typed('counts', Uint32Array.from(srcs, (src) => lists.get(src)!.length));
    w.typed('weights', Float64Array.from(edges, (e) => e.weight));
    w.typed('created', Float64Array.from(edges, (e) => e.created_at));
    return w.parts;
  }

  restoreSnapshot(parts: PartSource, store: StoreReader): void {
    const r = new PartsReader(parts);
    const srcs = readIndexedStrings(r, 'srcs'); // without a stored table, hashed now: throws when a source appears twice
    const starts = prefixSums(r.typed('counts', Uint32Array, srcs.length));
    // The edges themselves are read per source when spread asks (a recall reads a few hundred lists).
    const targets = r.stringsOnDemand('targets');
    const types = r.stringsOnDemand('types', targets.length);
    if (r.lengthOf('weights', Float64Array) !== targets.length || r.lengthOf('created', Float64Array) !== targets.length) throw new SnapshotMismatch('edge weights or times do not match the stored edges');
    if (starts[srcs.length] !== targets.length) throw new SnapshotMismatch('edge counts do not add up to the stored edges');
    this.reset();
    const weights = (from: number, to: number) => r.typedRange('weights', Float64Array, from, to);
    const created = (from: number, to: number) => r.typedRange('created', Float64Array, from, to);
    this.stored = new StoredEdges(srcs, starts, targets, types, weights, created);
    this.source = store;
  }

  load(store: StoreReader): void {
    this.reset();
    for (const r of allEdges(store)) {
      let list = this.out.get(r.src);
      if (!list) this.out.set(r.src, (list = []));
      list.push({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at });
    }
  }

  update(store: StoreReader, id: string): void {
    this.dropOut(id);
    const edges = store.neighbors(id);
    if (edges.length) this.out.set(id, edges);
    if (this.into) for (const e of edges) link(this.into, id, e.target_id);
  }

  remove(id: string): void {
    this.dropOut(id);
    const into = this.reverse();
    for (const src of into.get(id) ?? []) {
      const list = this.listOf(src);
      if (list) this.out.set(src, list.filter((e) => e.target_id !== id));
    }
    into.delete(id);
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    const res = new Map<string, Edge[]>();
    for (const id of ids) {
      const list = this.listOf(id);
      if (list?.length) res.set(id, list);
    }
    return res;
  }

  private reset(): void {
    this.out = new Map();
    this.stored = null;
    this.source = null;
    this.overridden.clear();
    this.into = null;
  }

  /** A source's outgoing list, read from the snapshot (once) when it has not been read or changed yet. */
  private listOf(id: string): Edge[] | undefined {
    const list = this.out.get(id);
    if (list || !this.stored || this.overridden.has(id)) return list;
    const source = this.stored.sources.indexOf(id);
    if (source < 0) return undefined;
    let read: Edge[];
    try {
      read = this.stored.edgesOf(source);
    } catch (err) {
      // Its edges, read only now, are damaged: every list comes from the store from here on.
      if (!(err instanceof SnapshotMismatch) || !this.source) throw err;
      this.load(this.source);
      return this.out.get(id);
    }
    this.overridden.add(id);
    this.out.set(id, read);
    return read;
  }

  private allLists(): Map<string, Edge[]> {
    if (this.stored) for (const id of this.stored.sources.toArray()) this.listOf(id);
    return this.out;
  }

  private reverse(): Map<string, Set<string>> {
    if (!this.into) {
      const into = new Map<string, Set<string>>();
      for (const [src, list] of this.allLists()) for (const e of list) link(into, src, e.target_id);
      this.into = into;
    }
    return this.into;
  }

  private dropOut(id: string): void {
    const list = this.listOf(id);
    if (this.into) for (const e of list ?? []) this.into.get(e.target_id)?.delete(id);
    this.out.delete(id);
    if (this.stored && this.stored.sources.indexOf(id) >= 0) this.overridden.add(id);
  }
}

function link(into: Map<string, Set<string>>, src: string, dst: string): void {
  let s = into.get(dst);
  if (!s) into.set(dst, (s = new Set()));
  s.add(src);
}
