/**
 * What the places of an erase (erase-targets.ts, erase-memories.ts, erase-scrubs.ts) share: how
 * many ids a statement takes, how a text is looked for in columns (every form of it, model/
 * erase-text.ts), and the belief dimensions a batch touches.
 */
import type { EraseNeedle } from '../../model/erase-text.js';
import { chunked, num, type EraseDb } from './erase-db.js';

/** Ids per statement: a JSON array parameter, well under any statement limit. */
export const IDS_PER_STATEMENT = 500;

export const json = (xs: readonly unknown[]) => JSON.stringify(xs);

/** `(holds(a) OR holds(b) …)` over every form of the text, and its parameters. */
export function anyHolds(db: EraseDb, needle: EraseNeedle, cols: readonly string[], forms: readonly string[] = needle.forms): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  for (const c of cols) {
    for (const f of forms) {
      parts.push(db.holds(c));
      params.push(f);
    }
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/**
 * The forms a text takes one JSON level deeper (a memory's `data` inside a journal image is a JSON
 * string inside JSON): each form escaped once more.
 */
export function nestedForms(needle: EraseNeedle): string[] {
  return [...new Set([...needle.forms, ...needle.forms.map((f) => JSON.stringify(f).slice(1, -1))])];
}

/** The belief dimensions of these entities (what a rebuild derives again). */
export function dimensionsOf(db: EraseDb, entities: ReadonlySet<string>): number {
  if (!db.has('mnemo_dimensions') || entities.size === 0) return 0;
  let n = 0;
  for (const part of chunked([...entities], IDS_PER_STATEMENT)) {
    const [r] = db.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t('mnemo_dimensions')} WHERE ${db.inJson('entity')}`, [json(part)]);
    n += num(r?.n);
  }
  return n;
}
