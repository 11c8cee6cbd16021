/**
 * Outgoing edges of every memory, in rowid order (nooa's tie order for fanout), held in memory
 * and kept in step with the store (Derived pattern). Spread reads a hundred or more adjacency
 * lists per hop; from memory that is a map lookup each instead of a SQL round trip per hop.
 * A delete removes the deleted memory's edges and, through the reverse map, the edges other
 * memories had into it (the store deletes those rows without telling their sources).
 */
import type { DerivedIndex } from '../store/derived.js';
import type { Edge } from '../model/memory.js';
import { allEdges } from '../store/derived-sources.js';
import type { StoreReader } from '../store/port.js';

export class Adjacency implements DerivedIndex {
  private out = new Map<string, Edge[]>();
  private into = new Map<string, Set<string>>();

  load(store: StoreReader): void {
    this.out = new Map();
    this.into = new Map();
    for (const r of allEdges(store)) {
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
