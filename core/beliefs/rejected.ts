/**
 * Observations a curator rejected: they stay in the delta log (it is append-only) but stop
 * counting. The set is a journalled `mnemo_meta` value, so a rejection is one undoable change on
 * every backend; the belief model reads its tables through `withoutRejected`, so every read, replay
 * and alias plan sees the log without them, and a rejection (or its undo) replays the entity.
 *
 * A curator's assertion (the conflict queue's "assert this value") is an observation with full
 * reliability whose undo must take it back out of the log's effect. So the change that asserts it
 * records the observation as rejected *before* the change and counted after: undo restores
 * "rejected" and replays, redo restores "counted".
 */
import { z } from 'zod';
import { MnemoError, notFound } from '../errors.js';
import { MetaRegistry } from '../engine/meta-registry.js';
import type { BeliefWrites, DeltaRow, JournalFollowUp, StoreReader, StoreWriter } from '../store/port/port.js';

export const REJECTED_KEY = 'belief_rejected_deltas';
const rejection = z.object({ at: z.number().finite(), entity: z.string(), attribute: z.string() });
export type Rejection = z.infer<typeof rejection>;

/** One memo per store handle (the registry parses on change only). */
const registries = new WeakMap<object, MetaRegistry<Rejection>>();
function registryOf(store: object): MetaRegistry<Rejection> {
  let r = registries.get(store);
  if (!r) registries.set(store, (r = new MetaRegistry<Rejection>(REJECTED_KEY, rejection)));
  return r;
}

export function rejectedDeltas(store: Pick<StoreReader, 'getMeta' | 'warn'>): Map<string, Rejection> {
  return registryOf(store).read(store);
}

/**
 * The belief tables with rejected deltas left out of every read that returns deltas. Writes pass
 * through; a rejected delta keeps its row (and its id), so `delta(id)` still finds it.
 */
export function withoutRejected<T extends BeliefWrites>(tables: T, store: Pick<StoreReader, 'getMeta' | 'warn'>): T {
  const keep = <D extends Pick<DeltaRow, 'id'>>(rows: D[]): D[] => {
    const rejected = rejectedDeltas(store);
    return rejected.size ? rows.filter((d) => !rejected.has(String(d.id))) : rows;
  };
  const filtered: Partial<BeliefWrites> = {
    deltasOf: (entity, attribute, until) => keep(tables.deltasOf(entity, attribute, until)),
    deltasOfEntities: (names) => keep(tables.deltasOfEntities(names)),
    timeline: (entity, attribute, limit, offset, until) => keep(tables.timeline(entity, attribute, limit, offset, until)),
    deltasForMemory: (memoryId) => keep(tables.deltasForMemory(memoryId)),
    lastDeltaAtOrBefore: (entity, attribute, t) => {
      const rejected = rejectedDeltas(store);
      if (rejected.size === 0) return tables.lastDeltaAtOrBefore(entity, attribute, t);
      const list = keep(tables.deltasOf(entity, attribute)).filter((d) => d.t <= t);
      return list[list.length - 1] ?? null;
    },
  };
  return new Proxy(tables, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in filtered) return filtered[prop as keyof BeliefWrites];
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** The dimensions a registry value names (for replaying them after undo or redo). */
function namesIn(image: unknown): Map<string, Rejection> {
  const out = new Map<string, Rejection>();
  const raw = (image as { value?: unknown } | null)?.value;
  if (typeof raw !== 'string') return out;
  try {
    for (const [k, v] of Object.entries(JSON.parse(raw) as Record<string, unknown>)) {
      const r = rejection.safeParse(v);
      if (r.success) out.set(k, r.data);
    }
  } catch {
    // unreadable: nothing to replay from it
  }
  return out;
}

/**
 * After the journal restores the rejected set (undo or redo of a rejection or an assertion), the
 * entities whose deltas changed state are replayed. Runs from the store's restore, with the model
 * built on the store it is handed.
 */
export function rejectedFollowUp(rebuild: (store: StoreWriter, entities: string[]) => void): JournalFollowUp {
  return {
    ns: 'meta',
    afterRestore(store, key, image, expected) {
      if (key !== REJECTED_KEY) return;
      const before = namesIn(expected);
      const after = namesIn(image);
      const entities = new Set<string>();
      for (const [id, r] of before) if (!after.has(id)) entities.add(r.entity);
      for (const [id, r] of after) if (!before.has(id)) entities.add(r.entity);
      if (entities.size) rebuild(store, [...entities]);
    },
  };
}

/** Marks a delta rejected inside the open change. */
export function markRejected(store: StoreWriter, delta: DeltaRow, at: number): void {
  const registry = registryOf(store);
  if (registry.read(store).has(String(delta.id))) throw new MnemoError('conflict', `observation #${delta.id} is already rejected`, { delta_id: delta.id });
  registry.write(store, (entries) => entries.set(String(delta.id), { at, entity: delta.entity, attribute: delta.attribute }));
}

/**
 * Inside the open change: records `delta` as rejected in the image the change captures, then as
 * counted, so the change's undo takes an assertion back out (see the module comment).
 */
export function markAssertedInChange(store: StoreWriter, delta: DeltaRow, at: number): void {
  const registry = registryOf(store);
  const current = registry.read(store);
  store.ensureMnemo();
  store.setMeta(REJECTED_KEY, JSON.stringify(Object.fromEntries([...current, [String(delta.id), { at, entity: delta.entity, attribute: delta.attribute }]])));
  registry.write(store, (entries) => entries.delete(String(delta.id)));
}

export function requireDelta(tables: Pick<BeliefWrites, 'delta'>, id: number): DeltaRow {
  const d = tables.delta(id);
  if (!d) throw notFound(`no observation #${id} in this store's belief log`, { field: 'delta_id' });
  return d;
}
