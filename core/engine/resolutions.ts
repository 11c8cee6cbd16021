/**
 * What curators and agents settled about conflicting memories, kept where every backend journals
 * it: three `mnemo_meta` values, each captured by the change that writes it, so an undo or redo
 * restores them with the memory rows of the same change.
 *
 * - `superseded`: memory id → the memory that supersedes it and when. Recall leaves a superseded
 *   memory out by default (the profile's `superseded` knob). The memory itself stays, with nooa's
 *   bi-temporal `valid_to` set to that instant and `superseded_by` beside nooa's fields in its
 *   `data` (nooa ignores a key it does not know), so history, time travel and nooa see it too.
 * - `conflicts_settled`: pairs a curator said both hold (different contexts); they leave the queue for good.
 * - `contradiction_notes`: the note an agent or curator gave when flagging a pair as contradicting.
 *
 * The registry, not the row, is the record: a nooa agent that saves the memory drops the key it does
 * not know, but keeps `valid_to`, and the resolution stands. A value nobody can read (written by
 * hand, truncated) counts as empty and is reported once, never thrown at a recall.
 */
import { z } from 'zod';
import type { Memory } from '../model/memory.js';
import type { StoreReader, StoreWriter } from '../store/port/port.js';
import { MetaRegistry } from './meta-registry.js';
import { extensionKey, type EngineReader } from './engine.js';

export const SUPERSEDED_KEY = 'superseded';
export const SETTLED_KEY = 'conflicts_settled';
export const NOTES_KEY = 'contradiction_notes';

/** The longest note a flag may carry. */
export const MAX_NOTE_CHARS = 2_000;

const id = z.string().min(1).max(200);
const at = z.number().finite();

const supersessionSchema = z.object({ by: id, at });
const settledSchema = z.object({ at, owner: z.string().max(500).default('') });
const noteSchema = z.object({ note: z.string().max(MAX_NOTE_CHARS), owner: z.string().max(500), at, from: id, to: id });

export type Supersession = z.infer<typeof supersessionSchema>;
export type Settlement = z.infer<typeof settledSchema>;
export type ContradictionNote = z.infer<typeof noteSchema>;

/** The key of an unordered pair of memories. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** The three registries of one engine (memoised per engine: engine.get(RESOLUTIONS)). */
export class Resolutions {
  readonly superseded = new MetaRegistry<Supersession>(SUPERSEDED_KEY, supersessionSchema);
  readonly settled = new MetaRegistry<Settlement>(SETTLED_KEY, settledSchema);
  readonly notes = new MetaRegistry<ContradictionNote>(NOTES_KEY, noteSchema);

  /** The memories superseded at or before `asOf` (all of them without it). */
  supersededAt(store: Pick<StoreReader, 'getMeta' | 'warn'>, asOf?: number): Map<string, Supersession> {
    const all = this.superseded.read(store);
    if (asOf === undefined) return all;
    let later = false;
    for (const s of all.values()) if (s.at > asOf) later = true;
    return later ? new Map([...all].filter(([, s]) => s.at <= asOf)) : all;
  }
}

/**
 * Marks `a` superseded by `b` at `at`, inside the open change: the registry entry, and on the row
 * nooa's `valid_to` and the `superseded_by` key.
 */
export function markSuperseded(store: StoreWriter, resolutions: Resolutions, a: Memory, b: Memory, at: number): void {
  resolutions.superseded.write(store, (entries) => {
    // A chain stays a chain: what `a` superseded is now superseded by `b` only through `a`.
    entries.set(a.id, { by: b.id, at });
    entries.delete(b.id);
  });
  a.valid_to = at;
  a.extra = { ...(a.extra ?? {}), superseded_by: b.id };
  store.save(a);
  if (b.extra && 'superseded_by' in b.extra) {
    const { superseded_by: _dropped, ...rest } = b.extra;
    b.extra = Object.keys(rest).length ? rest : undefined;
    b.valid_to = null;
    store.save(b);
  }
}

export function markSettled(store: StoreWriter, resolutions: Resolutions, a: string, b: string, owner: string, at: number): void {
  resolutions.settled.write(store, (entries) => entries.set(pairKey(a, b), { at, owner }));
}

export function recordNote(store: StoreWriter, resolutions: Resolutions, note: ContradictionNote): void {
  resolutions.notes.write(store, (entries) => entries.set(pairKey(note.from, note.to), note));
}

const RESOLUTIONS = extensionKey('conflicts.resolutions', () => new Resolutions());

/** The engine's registries (one parse cache per engine). */
export function resolutionsOf(engine: Pick<EngineReader, 'get'>): Resolutions {
  return engine.get(RESOLUTIONS);
}

/** Journal kind of a change that supersedes a memory (its meta names both). */
export const SUPERSEDE_KIND = 'conflicts.supersede';
/** How far back in the journal the change behind a supersession is looked for. */
const CHANGES_SEARCHED = 5_000;

/** The applied change that superseded `id` by `by` (newest first), or null when the journal no longer shows it. */
export function supersedingChange(store: Pick<StoreReader, 'journal'>, id: string, by: string): number | null {
  for (let offset = 0; offset < CHANGES_SEARCHED; offset += 200) {
    const page = store.journal.history(200, offset);
    for (const c of page) {
      if (c.kind !== SUPERSEDE_KIND || c.state !== 'applied') continue;
      const meta = c.meta as { superseded?: unknown; by?: unknown } | null;
      if (meta?.superseded === id && meta.by === by) return c.id;
    }
    if (page.length < 200) break;
  }
  return null;
}
