/**
 * The working view a plan is built against: the in-scope live memories with the fields the ops
 * read, held in memory and changed by each op's proposals, so a later op sees what the earlier ones
 * would have done (the reference's sequential pass) while the store is never written.
 */
import { blobToVector } from '../store/port/codec.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import type { RawMemoryRow, StoreReader } from '../store/port/port.js';
import { Fingerprinter } from './fingerprint.js';
import { buildNeighbourGraph, cosine32, StopSignal, type NeighbourGraph, type NeighbourOptions } from './neighbours.js';
import { readDataFields } from './data-fields.js';
import type { EdgeTriple, FoldFields, WindowInfo } from './types.js';

export interface ViewMemory extends FoldFields {
  id: string;
  rowid: number;
  type: string;
  status: string | null;
  owner: string;
  title: string | null;
  content: string;
  tags: string[];
  created_at: number;
  last_accessed_at: number;
  access_log: { ts: number; channel: string }[];
  edges: EdgeTriple[];
  /** Slot in the neighbour graph, -1 without a usable embedding. */
  slot: number;
  vector: Float32Array | null;
  /** Created by a generative op of this plan. */
  proposed: boolean;
}

export interface WindowHit {
  id: string;
  cos: number;
  window: WindowInfo;
}

export class WorkingView {
  readonly byId = new Map<string, ViewMemory>();
  /** Live in-scope memories in rowid order (new proposals appended). */
  readonly order: ViewMemory[] = [];
  /** Memory id → the op that archived it in this plan. */
  readonly archivedBy = new Map<string, string>();
  /** The same by graph slot (the window walks slots). */
  private readonly archivedBySlot: (string | undefined)[] = [];
  graph: NeighbourGraph | null = null;
  private slotIds: string[] = [];
  /** Neighbour lists of proposed memories (computed directly: there are few). */
  private readonly extra = new Map<number, { slot: number; cos: number }[]>();
  fingerprint = '';
  total = 0;

  constructor(
    readonly scope: OwnerScope,
    readonly minCos: number,
  ) {}

  static async load(store: StoreReader, scope: OwnerScope, minCos: number, shouldStop?: () => boolean, join: NeighbourOptions = {}): Promise<WorkingView> {
    const view = new WorkingView(scope, minCos);
    // First only the embeddings of the in-scope live rows, so the neighbour join can run on its
    // worker threads while this thread reads, decodes and fingerprints the rows.
    const ids: string[] = [];
    const vectors: Float32Array[] = [];
    for (const r of store.queries.embeddingRows()) {
      if (r.archived !== 0 || !ownerMatches(r.owner, scope)) continue;
      const v = decodeEmbedding(r.embedding, store.dim);
      if (!v) continue;
      ids.push(r.id);
      vectors.push(v);
    }
    let changed = false;
    const stop = () => changed || (shouldStop?.() ?? false);
    const pending = buildNeighbourGraph({ ids, vectors }, minCos, stop, join).catch((err: unknown) => err);
    const fp = new Fingerprinter();
    let stopped = false;
    const slotIds: string[] = [];
    const slotVectors: Float32Array[] = [];
    read: for await (const page of store.queries.memoryRowPages()) {
      for (const r of page) {
        if ((view.total & 4095) === 4095 && shouldStop?.()) {
          stopped = true;
          break read;
        }
        fp.row(r);
        view.total++;
        if (r.archived !== 0 || !ownerMatches(r.owner, scope)) continue;
        const m = decodeForView(r);
        // The first read's vector when the row is the same (the usual case), else this read's.
        const slot = slotIds.length;
        const first = vectors[slot];
        const same = !changed && ids[slot] === m.id && first !== undefined && sameBytes(first, r.embedding);
        const v = same ? first : decodeEmbedding(r.embedding, store.dim);
        if (v) {
          m.slot = slot;
          m.vector = v;
          // Another writer between the two reads: the join's input is stale, redo it below.
          if (!same) changed = true;
          slotIds.push(m.id);
          slotVectors.push(v);
        }
        view.byId.set(m.id, m);
        view.order.push(m);
      }
    }
    if (stopped) {
      await pending; // the workers see the same callback and stop
      throw new StopSignal();
    }
    if (slotIds.length !== ids.length) changed = true;
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const e of store.queries.edgeRows()) {
      fp.edge(e);
      const m = view.byId.get(e.src);
      if (m) m.edges.push({ target_id: e.dst, type: e.type, weight: e.weight });
    }
    view.fingerprint = fp.digest();
    view.slotIds = slotIds;
    const first = await pending;
    if (changed) {
      if (first instanceof Error && !(first instanceof StopSignal)) throw first;
      view.graph = await buildNeighbourGraph({ ids: slotIds, vectors: slotVectors }, minCos, shouldStop, join);
    } else {
      if (first instanceof Error) throw first;
      view.graph = first as NeighbourGraph;
    }
    return view;
  }

  isLive(id: string): boolean {
    return this.byId.has(id) && !this.archivedBy.has(id);
  }

  archive(id: string, byOp: string): void {
    this.archivedBy.set(id, byOp);
    const slot = this.byId.get(id)?.slot ?? -1;
    if (slot >= 0) this.archivedBySlot[slot] = byOp;
  }

  /** Live memories in rowid order, proposals last (what `all_memories()` returns at this point). */
  live(): ViewMemory[] {
    return this.order.filter((m) => !this.archivedBy.has(m.id));
  }

  /**
   * The first k live entries of `knn(vector, k)` for a memory, restricted to cos ≥ minCos (lower
   * entries can neither merge nor link), each with the archived entries ranked above it.
   */
  window(m: ViewMemory, k: number): WindowHit[] {
    if (m.slot < 0 || !this.graph) return [];
    const g = this.graph;
    const extra = this.extra.get(m.slot);
    // A proposal's slot lies beyond the graph's lists: its neighbours live in `extra` only.
    const inGraph = m.slot < g.off.length - 1;
    let slots: ArrayLike<number> = g.nbr;
    let cos: ArrayLike<number> = g.cos;
    let from = inGraph ? g.off[m.slot]! : 0;
    let to = inGraph ? g.off[m.slot + 1]! : 0;
    if (extra) {
      const entries: { slot: number; cos: number }[] = [...extra];
      for (let p = from; p < to; p++) entries.push({ slot: g.nbr[p]!, cos: g.cos[p]! });
      entries.sort((a, b) => b.cos - a.cos || a.slot - b.slot);
      slots = entries.map((e) => e.slot);
      cos = entries.map((e) => e.cos);
      from = 0;
      to = entries.length;
    }
    const out: WindowHit[] = [];
    let displaced: { id: string; by: string }[] = [];
    for (let p = from; p < to && out.length < k; p++) {
      const slot = slots[p]!;
      const id = this.slotIds[slot]!;
      const by = this.archivedBySlot[slot];
      if (by !== undefined) {
        displaced = [...displaced, { id, by }];
        continue;
      }
      out.push({ id, cos: cos[p]!, window: { position: out.length, k, displaced } });
    }
    return out;
  }

  /** Adds a memory proposed by a generative op (with its embedding) to the view and the graph. */
  addProposed(m: ViewMemory): void {
    this.byId.set(m.id, m);
    this.order.push(m);
    if (!m.vector || !this.graph) return;
    m.slot = this.slotIds.length;
    this.slotIds.push(m.id);
    const mine: { slot: number; cos: number }[] = [];
    const self = cosine32(m.vector, m.vector);
    if (self >= this.minCos) mine.push({ slot: m.slot, cos: self });
    for (const other of this.byId.values()) {
      if (other === m || !other.vector || other.slot < 0) continue;
      const c = cosine32(m.vector, other.vector);
      if (c < this.minCos) continue;
      mine.push({ slot: other.slot, cos: c });
      const list = this.extra.get(other.slot) ?? [];
      list.push({ slot: m.slot, cos: c });
      this.extra.set(other.slot, list);
    }
    this.extra.set(m.slot, mine);
  }

  /** Plain cosine between two view memories (for generative clusters below the graph threshold). */
  cos(a: ViewMemory, b: ViewMemory): number | null {
    return a.vector && b.vector ? cosine32(a.vector, b.vector) : null;
  }
}

function sameBytes(v: Float32Array, blob: Uint8Array | null): boolean {
  return blob !== null && Buffer.from(v.buffer, v.byteOffset, v.byteLength).equals(blob);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** blobToVector, with one copy instead of a DataView read per element where the layouts agree. */
function decodeEmbedding(blob: Uint8Array | null, dim: number): Float32Array | null {
  if (!LITTLE_ENDIAN || !blob || blob.byteLength !== dim * 4) return blobToVector(blob, dim);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function decodeForView(r: RawMemoryRow): ViewMemory {
  const d = readDataFields(r.data);
  return {
    id: r.id,
    rowid: r.rowid,
    type: r.type,
    status: r.status,
    owner: r.owner,
    title: d.title,
    content: r.content,
    tags: d.tags,
    importance: r.importance,
    salience: r.salience,
    confidence: d.confidence,
    strength: r.strength,
    reinforcement_count: d.reinforcement_count,
    created_at: r.created_at,
    last_accessed_at: r.last_accessed,
    access_log: d.access_log,
    edges: [],
    slot: -1,
    vector: null,
    proposed: false,
  };
}

/** add_edge semantics on a view memory: same target and type keeps the larger weight. */
export function addViewEdge(m: ViewMemory, target: string, type: string, weight: number): 'added' | 'raised' | null {
  const existing = m.edges.find((e) => e.target_id === target && e.type === type);
  if (existing) {
    if (weight > existing.weight) {
      existing.weight = weight;
      return 'raised';
    }
    return null;
  }
  m.edges.push({ target_id: target, type, weight });
  return 'added';
}

export function foldFields(m: FoldFields): FoldFields {
  return { importance: m.importance, salience: m.salience, confidence: m.confidence, strength: m.strength, reinforcement_count: m.reinforcement_count };
}
