/**
 * A small map kept as one `mnemo_meta` value (JSON), journalled with the change that writes it:
 * the change captures the value before rewriting it, so undo and redo restore it on every backend.
 * Read through a memo on its raw text (readers ask often; it changes rarely). Entries that do not
 * parse are skipped, and a value that is not JSON reads as empty with one warning.
 */
import { z } from 'zod';
import { MnemoError } from '../errors.js';
import type { StoreReader, StoreWriter } from '../store/port/port.js';

/** How many entries one registry keeps: each write rewrites the whole value, so it stays small enough to journal. */
export const MAX_REGISTRY_ENTRIES = 20_000;

/** One parsed registry, memoised on its raw text: recall reads it on every ranking, and it rarely changes. */
export class MetaRegistry<T> {
  private raw: string | null = null;
  private parsed = new Map<string, T>();

  constructor(
    readonly key: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  read(store: Pick<StoreReader, 'getMeta' | 'warn'>): Map<string, T> {
    const raw = store.getMeta(this.key);
    if (raw === this.raw) return this.parsed;
    const out = new Map<string, T>();
    if (raw !== null) {
      let json: unknown = null;
      try {
        json = JSON.parse(raw);
      } catch {
        store.warn(`registry-${this.key}`, `mnemo_meta "${this.key}" is not JSON; read as empty (resolve again to rewrite it)`);
      }
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
          const r = this.schema.safeParse(v);
          if (r.success) out.set(k, r.data);
        }
      }
    }
    this.raw = raw;
    this.parsed = out;
    return out;
  }

  /** Rewrites the value inside the open change (captured first, so undo restores it). */
  write(store: StoreWriter, edit: (entries: Map<string, T>) => void): void {
    store.ensureMnemo();
    store.journal.capture(`meta:${this.key}`);
    const entries = new Map(this.read(store));
    edit(entries);
    if (entries.size > MAX_REGISTRY_ENTRIES) {
      throw new MnemoError('conflict', `this store already records ${MAX_REGISTRY_ENTRIES} entries in "${this.key}"; forget or merge settled memories instead of keeping both`, {
        key: this.key,
      });
    }
    store.setMeta(this.key, JSON.stringify(Object.fromEntries(entries)));
  }
}

