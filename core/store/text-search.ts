/**
 * The memory list's text search, held in memory: lower-cased title + content per memory, searched
 * with indexOf. A SQL LIKE over title needs json_extract on every row's `data` (the 64-entry rings
 * make those rows several KB), which costs seconds per keystroke on a 100k store; here a search
 * costs tens of milliseconds after one load. Kept current through the Derived pattern (our own
 * writes patch one row; another process's commit reloads it on the next search).
 */
import type { DerivedIndex } from '../engine/derived.js';
import type { MemoryStore } from './store.js';

interface Row {
  id: string;
  title: string | null;
  content: string;
}

const LOAD_SQL = "SELECT id, json_extract(data, '$.title') AS title, content FROM memories";
const ROW_SQL = "SELECT id, json_extract(data, '$.title') AS title, content FROM memories WHERE id = ?";

export class TextSearchIndex implements DerivedIndex {
  private texts = new Map<string, string>();

  private static text(r: Row): string {
    return `${r.title ?? ''}\n${r.content}`.toLowerCase();
  }

  load(store: MemoryStore): void {
    this.texts = new Map();
    for (const r of store.db.prepare(LOAD_SQL).iterate() as Iterable<Row>) this.texts.set(r.id, TextSearchIndex.text(r));
  }

  update(store: MemoryStore, id: string): void {
    const r = store.statement(ROW_SQL).get(id) as Row | undefined;
    if (r) this.texts.set(id, TextSearchIndex.text(r));
    else this.texts.delete(id);
  }

  remove(id: string): void {
    this.texts.delete(id);
  }

  /** Ids whose title or content contains every word (case-insensitive), or whose id starts with the word. */
  match(words: readonly string[]): string[] {
    const needles = words.map((w) => w.toLowerCase()).filter(Boolean);
    const out: string[] = [];
    for (const [id, text] of this.texts) {
      if (needles.every((w) => text.includes(w) || id.startsWith(w))) out.push(id);
    }
    return out;
  }
}
