/**
 * Entity links for the mnemo profile: which entities (the lower-cased `entities` strings of live
 * memories) a query names, and which memories carry them. "What did Melanie paint?" names
 * Melanie; the memories that carry Melanie as an entity are the likelier answers. Matching is on
 * whole words (a query n-gram of up to four words equal to an entity), never on substrings.
 *
 * Read back from a snapshot, only the count of carriers per entity is made up front (stored with
 * it: a few thousand entities, where counting them means reading every memory's); a memory's list
 * is sliced out when scoring asks, and the holders' sets when someone asks for them.
 */
import type { PersistableIndex } from '../../store/derived/derived.js';
import { rowCounter, type LoadProgress } from '../../store/derived/derived-index.js';
import { PartsReader, PartsWriter, SnapshotMismatch, prefixSums, type PartSource, type SnapshotParts, type StringRun } from '../../store/derived/snapshot-parts.js';
import type { StoreReader } from '../../store/port/port.js';
import { readStoredStrings, type StoredStrings } from '../../store/derived/stored-strings.js';
import { countMemories } from '../../store/queries/memory-lookups.js';
import { liveEntities } from '../../store/queries/edge-sources.js';

const MAX_ENTITY_WORDS = 4;

export function entityWords(text: string): string[] {
  return text.toLowerCase().replace(/['’]s\b/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Each memory's entities as a snapshot holds them, sliced out when asked for. */
interface StoredEntities {
  /** The memories' ids as read (an id's place is found by its bytes' hash, not a Map of 100k strings). */
  ids: StoredStrings;
  starts: Float64Array;
  entities: StringRun;
}

export class EntityIndex implements PersistableIndex {
  /** Entities come from the row's text alone, which neither an edge nor an access changes. */
  readonly readsNoEdges = true;
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  readonly snapshotFormat = 'entities/2';
  /** entity → live memories carrying it (what a query's n-grams are looked up in). */
  private readonly carriers = new Map<string, number>();
  /** entity → ids of live memories carrying it; built when first asked for (recall only needs `carriers`). */
  private holders: Map<string, Set<string>> | null = null;
  /** id → its entities (normalised), once set or read from `stored`. */
  private readonly of = new Map<string, string[]>();
  /** A snapshot read back: an id's list is read from it until `overridden` names the id. */
  private stored: StoredEntities | null = null;
  private readonly overridden = new Set<string>();

  load(store: StoreReader, progress?: LoadProgress): void {
    this.reset();
    const rows = rowCounter(countMemories(store), progress);
    // json_extract reads the one field in C instead of parsing rows that carry 64-entry rings.
    for (const r of liveEntities(store)) {
      this.set(r.id, entitiesOf(`{"entities": ${r.entities ?? 'null'}}`));
      rows.tick();
    }
    rows.end();
  }

  get size(): number {
    return this.of.size + (this.stored ? this.stored.ids.length - this.overridden.size : 0);
  }

  snapshotConditions(): string {
    return '';
  }

  /** Each memory's normalised entities (reading them back skips SQLite's json_extract over every row). */
  saveSnapshot(): SnapshotParts | null {
    const w = new PartsWriter();
    const all = this.all();
    const ids = [...all.keys()];
    const lists = ids.map((id) => all.get(id)!);
    if (!w.strings('ids', ids) || !w.strings('entities', lists.flat()) || !w.strings('carriers', [...this.carriers.keys()])) return null;
    w.typed('counts', Uint32Array.from(lists, (l) => l.length));
    w.typed('carriers.count', Uint32Array.from(this.carriers.values()));
    return w.parts;
  }

  restoreSnapshot(parts: PartSource): void {
    const r = new PartsReader(parts);
    const ids = readStoredStrings(r, 'ids').index(); // throws when an id appears twice
    const starts = prefixSums(r.typed('counts', Uint32Array, ids.length));
    const entities = r.stringRun('entities');
    if (starts[ids.length] !== entities.length) throw new SnapshotMismatch('entity counts do not add up to the stored entities');
    this.reset();
    const carriers = r.strings('carriers');
    const counts = r.typed('carriers.count', Uint32Array, carriers.length);
    let carried = 0;
    for (let k = 0; k < carriers.length; k++) {
      this.carriers.set(carriers[k]!, counts[k]!);
      carried += counts[k]!;
    }
    if (carried !== entities.length || this.carriers.size !== carriers.length) throw new SnapshotMismatch('carrier counts do not add up to the stored entities');
    this.stored = { ids, starts, entities };
  }

  update(store: StoreReader, id: string): void {
    const r = store.queries.sourceRow(id);
    this.remove(id);
    if (r && r.archived === 0) this.set(id, entitiesOf(r.data));
  }

  remove(id: string): void {
    for (const e of this.entitiesOf(id) ?? []) {
      const n = (this.carriers.get(e) ?? 1) - 1;
      if (n > 0) this.carriers.set(e, n);
      else this.carriers.delete(e);
      const set = this.holders?.get(e);
      set?.delete(id);
      if (set?.size === 0) this.holders!.delete(e);
    }
    this.of.delete(id);
    if (this.stored && this.stored.ids.indexOf(id) >= 0) this.overridden.add(id);
  }

  /** The known entities the query names, longest match first at each position. */
  entitiesIn(query: string): string[] {
    const words = entityWords(query);
    const found: string[] = [];
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(MAX_ENTITY_WORDS, words.length - i); n >= 1; n--) {
        const candidate = words.slice(i, i + n).join(' ');
        if (this.carriers.has(candidate)) {
          if (!found.includes(candidate)) found.push(candidate);
          i += n - 1;
          break;
        }
      }
    }
    return found;
  }

  /** The share of `entities` this memory carries (0 when it carries none or none are asked for). */
  overlap(id: string, entities: readonly string[]): number {
    if (entities.length === 0) return 0;
    const mine = this.entitiesOf(id);
    if (!mine) return 0;
    let hit = 0;
    for (const e of entities) if (mine.includes(e)) hit++;
    return hit / entities.length;
  }

  holdersOf(entity: string): ReadonlySet<string> {
    if (!this.holders) {
      const holders = new Map<string, Set<string>>();
      for (const [id, list] of this.all()) for (const e of list) addHolder(holders, e, id);
      this.holders = holders;
    }
    return this.holders.get(entity) ?? new Set();
  }

  private reset(): void {
    this.carriers.clear();
    this.holders = null;
    this.of.clear();
    this.stored = null;
    this.overridden.clear();
  }

  /** An id's entities, read from the snapshot (once) when it has not been read or changed yet. */
  private entitiesOf(id: string): string[] | undefined {
    const mine = this.of.get(id);
    if (mine || !this.stored || this.overridden.has(id)) return mine;
    const i = this.stored.ids.indexOf(id);
    if (i < 0) return undefined;
    const read = this.stored.entities.range(this.stored.starts[i]!, this.stored.starts[i + 1]!);
    this.overridden.add(id);
    this.of.set(id, read);
    return read;
  }

  private all(): Map<string, string[]> {
    if (this.stored) for (const id of this.stored.ids.toArray()) this.entitiesOf(id);
    return this.of;
  }

  private set(id: string, entities: string[]): void {
    this.of.set(id, entities);
    for (const e of entities) {
      this.carriers.set(e, (this.carriers.get(e) ?? 0) + 1);
      if (this.holders) addHolder(this.holders, e, id);
    }
  }
}

function addHolder(holders: Map<string, Set<string>>, entity: string, id: string): void {
  let set = holders.get(entity);
  if (!set) holders.set(entity, (set = new Set()));
  set.add(id);
}

function entitiesOf(data: string): string[] {
  let m: { entities?: unknown };
  try {
    m = JSON.parse(data) as typeof m;
  } catch {
    return [];
  }
  if (!Array.isArray(m.entities)) return [];
  const out: string[] = [];
  for (const e of m.entities) {
    if (typeof e !== 'string') continue;
    const norm = entityWords(e).join(' ');
    if (norm && !out.includes(norm)) out.push(norm);
  }
  return out;
}
