/**
 * A derived index for tests that holds each live memory's content and outgoing edges, and counts
 * how it was kept current (full loads against row-by-row updates), so a test can tell a catch-up
 * from a rebuild and compare the patched index with a fresh load.
 */
import type { DerivedIndex } from '../core/store/derived/derived.js';
import type { StoreReader } from '../core/store/port/port.js';
import { allMemories } from '../core/store/queries/memory-lookups.js';

export class SpyIndex implements DerivedIndex {
  loads = 0;
  updated: string[] = [];
  removed: string[] = [];
  readonly rows = new Map<string, string>();
  load(store: StoreReader): void {
    this.loads++;
    this.rows.clear();
    for (const m of allMemories(store)) this.rows.set(m.id, summarize(m));
  }
  update(store: StoreReader, id: string): void {
    this.updated.push(id);
    const m = store.get(id);
    if (m && !m.archived) this.rows.set(id, summarize(m));
    else this.rows.delete(id);
  }
  remove(id: string): void {
    this.removed.push(id);
    this.rows.delete(id);
  }
}

function summarize(m: { content: string; edges: { target_id: string; type: string; weight: number }[] }): string {
  return `${m.content} | ${m.edges.map((e) => `${e.type}>${e.target_id}@${e.weight}`).join(',')}`;
}
