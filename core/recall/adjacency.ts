/**
 * Outgoing edges of every memory, in rowid order (nooa's tie order for fanout), held in memory
 * and kept in step with the store (Derived pattern). Spread reads a hundred or more adjacency
 * lists per hop; from memory that is a map lookup each instead of a SQL round trip per hop.
 * A delete removes the deleted memory's edges and, through the reverse map, the edges other
 * memories had into it (the store deletes those rows without telling their sources).
 */
import type { PersistableIndex } from '../store/derived.js';
import type { EdgeType } from '../model/enums.js';
import type { Edge } from '../model/memory.js';
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../store/snapshot-parts.js';
import type { StoreReader } from '../store/port.js';

export class Adjacency implements PersistableIndex {
  readonly snapshotFormat = 'adjacency/1';
  private out = new Map<string, Edge[]>();
  private into = new Map<string, Set<string>>();

  /** Memories with outgoing edges. */
  get size(): number {
    return this.out.size;
  }

  snapshotConditions(): string {
    return '';
  }

  /** The outgoing lists as they are (their order is the fanout's tie order); the reverse map follows from them. */
  saveSnapshot(): SnapshotParts | null {
    const w = new PartsWriter();
    const srcs = [...this.out.keys()];
    const edges = srcs.flatMap((src) => this.out.get(src)!);
    if (!w.strings('srcs', srcs) || !w.strings('targets', edges.map((e) => e.target_id)) || !w.strings('types', edges.map((e) => e.type))) return null;
    w.typed('counts', Uint32Array.from(srcs, (src) => this.out.get(src)!.length));
    w.typed('weights', Float64Array.from(edges, (e) => e.weight));
    w.typed('created', Float64Array.from(edges, (e) => e.created_at));
    return w.parts;
  }

  restoreSnapshot(parts: SnapshotParts): void {
    const r = new PartsReader(parts);
    const srcs = r.strings('srcs');
    const counts = r.typed('counts', Uint32Array, srcs.length);
    const targets = r.strings('targets');
    const types = r.strings('types', targets.length);
    const weights = r.typed('weights', Float64Array, targets.length);
    const created = r.typed('created', Float64Array, targets.length);
    this.out = new Map();
    this.into = new Map();
    let at = 0;
    for (let i = 0; i < srcs.length; i++) {
      const c = counts[i]!;
      if (at + c > targets.length) throw new SnapshotMismatch('edge counts exceed the stored edges');
      const list: Edge[] = [];
      for (let k = at; k < at + c; k++) {
        list.push({ target_id: targets[k]!, type: types[k] as EdgeType, weight: weights[k]!, created_at: created[k]! });
        this.link(srcs[i]!, targets[k]!);
      }
      this.out.set(srcs[i]!, list);
      at += c;
    }
    if (at !== targets.length) throw new SnapshotMismatch('stored edges left over');
  }

  load(store: StoreReader): void {
    this.out = new Map();
    this.into = new Map();
    for (const r of store.queries.allEdges()) {
      let list = this.out.get(r.src);
      if (!list) this.out.set(r.src, (list = []));
      list.push({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at });
      this.link(r.src, r.dst);
    }
  }

  update(store: StoreReader, id: string): void {
    this.dropOut(id);
    const edges = store.neighbors(id);
    if (edges.length) this.out.set(id, edges);
    for (const e of edges) this.link(id, e.target_id);
  }

  remove(id: string): void {
    this.dropOut(id);
    for (const src of this.into.get(id) ?? []) {
      const list = this.out.get(src);
      if (list) this.out.set(src, list.filter((e) => e.target_id !== id));
    }
    this.into.delete(id);
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    const res = new Map<string, Edge[]>();
    for (const id of ids) {
      const list = this.out.get(id);
      if (list?.length) res.set(id, list);
    }
    return res;
  }

  private link(src: string, dst: string): void {
    let s = this.into.get(dst);
    if (!s) this.into.set(dst, (s = new Set()));
    s.add(src);
  }

  private dropOut(id: string): void {
    for (const e of this.out.get(id) ?? []) this.into.get(e.target_id)?.delete(id);
    this.out.delete(id);
  }
}
