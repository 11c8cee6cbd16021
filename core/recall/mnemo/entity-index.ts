/**
 * Entity links for the mnemo profile: which entities (the lower-cased `entities` strings of live
 * memories) a query names, and which memories carry them. "What did Melanie paint?" names
 * Melanie; the memories that carry Melanie as an entity are the likelier answers. Matching is on
 * whole words (a query n-gram of up to four words equal to an entity), never on substrings.
 */
import type { PersistableIndex } from '../../store/derived.js';
import { rowCounter, type LoadProgress } from '../../store/derived-index.js';
import { PartsReader, PartsWriter, SnapshotMismatch, type SnapshotParts } from '../../store/snapshot-parts.js';
import type { StoreReader } from '../../store/port.js';

const MAX_ENTITY_WORDS = 4;

export function entityWords(text: string): string[] {
  return text.toLowerCase().replace(/['’]s\b/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

export class EntityIndex implements PersistableIndex {
  readonly snapshotFormat = 'entities/1';
  /** entity → ids of live memories carrying it. */
  private readonly holders = new Map<string, Set<string>>();
  /** id → its entities (normalised). */
  private readonly of = new Map<string, string[]>();

  load(store: StoreReader, progress?: LoadProgress): void {
    this.holders.clear();
    this.of.clear();
    const rows = rowCounter(store.count(), progress);
    // json_extract reads the one field in C instead of parsing rows that carry 64-entry rings.
    for (const r of store.queries.liveEntities()) {
      this.set(r.id, entitiesOf(`{"entities": ${r.entities ?? 'null'}}`));
      rows.tick();
    }
    rows.end();
  }

  get size(): number {
    return this.of.size;
  }

  snapshotConditions(): string {
    return '';
  }

  /** Each memory's normalised entities (reading them back skips SQLite's json_extract over every row). */
  saveSnapshot(): SnapshotParts | null {
    const w = new PartsWriter();
    const ids = [...this.of.keys()];
    const lists = ids.map((id) => this.of.get(id)!);
    if (!w.strings('ids', ids) || !w.strings('entities', lists.flat())) return null;
    w.typed('counts', Uint32Array.from(lists, (l) => l.length));
    return w.parts;
  }

  restoreSnapshot(parts: SnapshotParts): void {
    const r = new PartsReader(parts);
    const ids = r.strings('ids');
    const counts = r.typed('counts', Uint32Array, ids.length);
    const entities = r.strings('entities');
    this.holders.clear();
    this.of.clear();
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      const c = counts[i]!;
      if (at + c > entities.length) throw new SnapshotMismatch('entity counts exceed the stored entities');
      this.set(ids[i]!, entities.slice(at, at + c));
      at += c;
    }
    if (at !== entities.length) throw new SnapshotMismatch('stored entities left over');
  }

  update(store: StoreReader, id: string): void {
    const r = store.queries.sourceRow(id);
    this.remove(id);
    if (r && r.archived === 0) this.set(id, entitiesOf(r.data));
  }

  remove(id: string): void {
    for (const e of this.of.get(id) ?? []) {
      const set = this.holders.get(e);
      set?.delete(id);
      if (set?.size === 0) this.holders.delete(e);
    }
    this.of.delete(id);
  }

  /** The known entities the query names, longest match first at each position. */
  entitiesIn(query: string): string[] {
    const words = entityWords(query);
    const found: string[] = [];
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(MAX_ENTITY_WORDS, words.length - i); n >= 1; n--) {
        const candidate = words.slice(i, i + n).join(' ');
        if (this.holders.has(candidate)) {
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
    const mine = this.of.get(id);
    if (!mine) return 0;
    let hit = 0;
    for (const e of entities) if (mine.includes(e)) hit++;
    return hit / entities.length;
  }

  holdersOf(entity: string): ReadonlySet<string> {
    return this.holders.get(entity) ?? new Set();
  }

  private set(id: string, entities: string[]): void {
    this.of.set(id, entities);
    for (const e of entities) {
      let set = this.holders.get(e);
      if (!set) this.holders.set(e, (set = new Set()));
      set.add(id);
    }
  }
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
