/** Helpers for the reflection tests: open a store at a fixed instant, dump rows for exact comparison. */
import Database from 'better-sqlite3';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';

export function openAt(path: string, now: number, create = false): Engine {
  return Engine.open(path, { clock: fixedClock(now), onWarning: () => {}, create });
}

/** Every memory row (all columns, embedding as hex) and every edge row, for byte-exact comparisons. */
export function dumpStore(path: string): { memories: unknown[]; edges: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    const memories = db
      .prepare('SELECT rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, hex(embedding) AS emb, data FROM memories ORDER BY rowid')
      .all();
    const edges = db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY src, dst, type').all();
    return { memories, edges };
  } finally {
    db.close();
  }
}

export function integrityOk(path: string): boolean {
  const db = new Database(path, { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) === 'ok';
  } finally {
    db.close();
  }
}
