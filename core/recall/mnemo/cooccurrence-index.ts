/**
 * The store's co-occurrence space (cooccurrence-space.ts) as a Derived index: the words of every
 * live memory and the `precedes` edges between them are kept in step with the store. The counts
 * are global (one new memory changes every vector a little) and a build costs about 10 s and
 * 400 MB at 100k memories, so the space is not rebuilt on every write: a memory whose text,
 * owner or edges changed since the last build is embedded from its words with the word vectors
 * of that build, until more than REBUILD_SHARE of the memories have changed; the next query then
 * rebuilds. Accesses change none of these and never count. Only a profile that turns the term on
 * ever builds it.
 *
 * A memory's context is what follows it: the memories up to CONTEXT_REACH `precedes` steps
 * after it, of the same owner (a reply says what the turn before it was about).
 */
import type { DerivedIndex } from '../../store/derived/derived-index.js';
import type { StoreReader } from '../../store/port/port.js';
import { CooccurrenceSpace, cooccurrenceTerms } from './cooccurrence-space.js';
import { bodyFromColumns, bodyOf } from './keyword-text.js';
import { edgeTargets, edgesOfType } from '../../store/queries/edge-sources.js';

/** `precedes` steps whose words count as a memory's context (chosen on LoCoMo's tuning five: 3 of 1, 2, 3, 5, 8). */
export const CONTEXT_REACH = 3;
/** The share of memories changed since the last build above which the next query rebuilds. */
export const REBUILD_SHARE = 0.1;
const CONTEXT_EDGE = 'precedes';

interface Doc {
  owner: string;
  terms: string[];
}

export interface BuiltSpace {
  space: CooccurrenceSpace;
  /** id → the memory's row in the space, for memories unchanged since the build. */
  slotOf: ReadonlyMap<string, number>;
  ids: readonly string[];
  /** The memories changed since the build: their vectors from their words (null: removed). */
  changed: ReadonlyMap<string, Float32Array | null>;
}

export class CooccurrenceIndex implements DerivedIndex {
  /** Text, owner and `precedes` edges: an access changes none of them. */
  readonly readsNoUsage = true;
  /** Nor importance or salience: another process's rescore leaves it as it is. */
  readonly readsNoScores = true;
  private readonly docs = new Map<string, Doc>();
  /** src → dst of `precedes` edges. */
  private readonly next = new Map<string, string[]>();
  private built: { space: CooccurrenceSpace; slotOf: Map<string, number>; ids: string[]; changed: Map<string, Float32Array | null> } | null = null;

  get size(): number {
    return this.docs.size;
  }

  load(store: StoreReader): void {
    this.docs.clear();
    this.next.clear();
    this.built = null;
    for (const r of store.queries.liveBodies()) this.docs.set(r.id, { owner: r.owner, terms: cooccurrenceTerms(bodyFromColumns(r)) });
    for (const e of edgesOfType(store, CONTEXT_EDGE)) this.addNext(e.src, e.dst);
  }

  update(store: StoreReader, id: string): void {
    const r = store.queries.sourceRow(id);
    if (!r || r.archived !== 0) {
      this.remove(id);
      return;
    }
    const terms = cooccurrenceTerms(bodyOf(r.data));
    const targets = edgeTargets(store, id, CONTEXT_EDGE);
    const before = this.docs.get(id);
    const sameText = before !== undefined && before.owner === r.owner && sameList(before.terms, terms);
    if (sameText && sameList(this.next.get(id) ?? [], targets)) return;
    this.docs.set(id, { owner: r.owner, terms });
    this.next.delete(id);
    for (const dst of targets) this.addNext(id, dst);
    this.changed(id, terms);
  }

  remove(id: string): void {
    if (!this.docs.delete(id)) return;
    this.next.delete(id);
    this.changed(id, null);
  }

  /** The space over the live memories, rebuilt now if too many changed since the last build. */
  space(): BuiltSpace {
    if (this.built && this.built.changed.size <= REBUILD_SHARE * this.built.ids.length) return this.built;
    const ids = [...this.docs.keys()];
    const slotOf = new Map(ids.map((id, i) => [id, i]));
    const docs = ids.map((id) => {
      const doc = this.docs.get(id)!;
      return { terms: doc.terms, context: this.contextOf(id, doc.owner, slotOf) };
    });
    this.built = { space: new CooccurrenceSpace(docs), slotOf, ids, changed: new Map() };
    return this.built;
  }

  private changed(id: string, terms: string[] | null): void {
    if (!this.built) return;
    this.built.changed.set(id, terms ? this.built.space.embed(terms) : null);
  }

  private contextOf(id: string, owner: string, slotOf: ReadonlyMap<string, number>): number[] {
    const out: number[] = [];
    const seen = new Set([id]);
    let frontier = [id];
    for (let step = 0; step < CONTEXT_REACH && frontier.length > 0; step++) {
      const reached: string[] = [];
      for (const at of frontier)
        for (const dst of this.next.get(at) ?? []) {
          if (seen.has(dst)) continue;
          seen.add(dst);
          const doc = this.docs.get(dst);
          // Context never crosses owners: a foreign memory's words must not shape this one's.
          if (!doc || doc.owner !== owner) continue;
          out.push(slotOf.get(dst)!);
          reached.push(dst);
        }
      frontier = reached;
    }
    return out;
  }

  private addNext(src: string, dst: string): void {
    let list = this.next.get(src);
    if (!list) this.next.set(src, (list = []));
    if (!list.includes(dst)) list.push(dst);
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
