/**
 * The `part_of` structure in memory (child → parents, parent → children), for the sibling
 * spread: a recall asks for the parents of ~100 candidates and the children of a few parents,
 * which as SQL would be two queries per recall on the hot path. Edges are stored with their
 * source, so re-reading a memory's outgoing edges on each change keeps both maps exact; liveness
 * and owner scope are checked at query time against the recall corpus.
 */
import type { DerivedIndex } from '../../store/derived.js';
import type { StoreReader } from '../../store/port.js';

export class PartOfIndex implements DerivedIndex {
  private readonly parents = new Map<string, string[]>();
  private readonly children = new Map<string, Set<string>>();

  load(store: StoreReader): void {
    this.parents.clear();
    this.children.clear();
    for (const r of store.queries.edgesOfType('part_of')) this.link(r.src, r.dst);
  }

  update(store: StoreReader, id: string): void {
    this.unlinkFrom(id);
    for (const dst of store.queries.edgeTargets(id, 'part_of')) this.link(id, dst);
  }

  remove(id: string): void {
    this.unlinkFrom(id);
  }

  parentsOf(id: string): readonly string[] {
    return this.parents.get(id) ?? [];
  }

  /** Children in the order their edges were written. */
  childrenOf(id: string): string[] {
    return [...(this.children.get(id) ?? [])];
  }

  private link(child: string, parent: string): void {
    let ps = this.parents.get(child);
    if (!ps) this.parents.set(child, (ps = []));
    if (!ps.includes(parent)) ps.push(parent);
    let cs = this.children.get(parent);
    if (!cs) this.children.set(parent, (cs = new Set()));
    cs.add(child);
  }

  private unlinkFrom(child: string): void {
    for (const p of this.parents.get(child) ?? []) this.children.get(p)?.delete(child);
    this.parents.delete(child);
  }
}
