/**
 * The `part_of` structure in memory (child → parents, parent → children), for the sibling
 * spread: a recall asks for the parents of ~100 candidates and the children of a few parents,
 * which as SQL would be two queries per recall on the hot path. Edges are stored with their
 * source, so re-reading a memory's outgoing edges on each change keeps both maps exact; liveness
 * and owner scope are checked at query time against the recall corpus.
 *
 * Persisted like the other recall indexes: building it scans every edge of the store (nooa's
 * table has no index on the edge type: ~0.3 s at 100k memories on each open), while its snapshot
 * is a few hundred kilobytes. Both maps are stored as they are, in their order, so a restored
 * index answers exactly as the one that was saved.
 */
import type { PersistableIndex } from '../../store/derived/derived.js';
import type { StoreReader } from '../../store/port/port.js';
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type SnapshotParts } from '../../store/derived/snapshot-parts.js';
import { edgeTargets, edgesOfType } from '../../store/queries/edge-sources.js';

export class PartOfIndex implements PersistableIndex {
  /** `part_of` edges only: an access changes none. */
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  readonly snapshotFormat = 'part_of/1';
  private parents = new Map<string, string[]>();
  private children = new Map<string, Set<string>>();

  /** Memories with a `part_of` edge. */
  get size(): number {
    return this.parents.size;
  }

  load(store: StoreReader): void {
    this.parents.clear();
    this.children.clear();
    for (const r of edgesOfType(store, 'part_of')) this.link(r.src, r.dst);
  }

  update(store: StoreReader, id: string): void {
    this.unlinkFrom(id);
    for (const dst of edgeTargets(store, id, 'part_of')) this.link(id, dst);
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

  snapshotConditions(): string {
    return '';
  }

  saveSnapshot(): SnapshotParts | null {
    const w = new PartsWriter();
    return saveMap(w, 'parents', this.parents) && saveMap(w, 'children', this.children) ? w.parts : null;
  }

  restoreSnapshot(parts: PartSource): void {
    const r = new PartsReader(parts);
    const parents = new Map<string, string[]>();
    readMap(r, 'parents', (key, values) => parents.set(key, values));
    const children = new Map<string, Set<string>>();
    readMap(r, 'children', (key, values) => children.set(key, new Set(values)));
    this.parents = parents;
    this.children = children;
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

/** A map of id → ids as its keys, each key's count, and the values back to back (both in the map's order). */
function saveMap(w: PartsWriter, name: string, map: ReadonlyMap<string, Iterable<string>>): boolean {
  const keys = [...map.keys()];
  const lists = keys.map((k) => [...map.get(k)!]);
  w.typed(`${name}.count`, Uint32Array.from(lists, (l) => l.length));
  return w.strings(`${name}.keys`, keys) && w.strings(`${name}.values`, lists.flat());
}

function readMap(r: PartsReader, name: string, add: (key: string, values: string[]) => void): void {
  const keys = r.strings(`${name}.keys`);
  const starts = prefixSums(r.typed(`${name}.count`, Uint32Array, keys.length));
  const values = r.stringRun(`${name}.values`);
  if (starts[keys.length] !== values.length) throw new SnapshotMismatch(`stored ${name}: counts do not add up to the values`);
  for (let i = 0; i < keys.length; i++) add(keys[i]!, values.range(starts[i]!, starts[i + 1]!));
}
