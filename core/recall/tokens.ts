/**
 * Query tokens the way nooa reads a query: Python `str.lower()` then `[a-z0-9]+`.
 * The keyword leg uses the distinct tokens in first-occurrence order, at most 12; the recall
 * cues (Jaccard against a memory's cue set) use every token, uncapped.
 */
import { hashTokens } from '../embed/hashing.js';

export function queryTokens(query: string, max: number): string[] {
  const seen = new Set<string>();
  for (const t of hashTokens(query)) {
    if (seen.size >= max) break;
    seen.add(t);
  }
  return [...seen];
}

export function queryCues(query: string): Set<string> {
  return new Set(hashTokens(query));
}

/** |A ∩ B| / |A ∪ B|; 0 when either set is empty. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** SQLite's lower(): ASCII letters only, so `LIKE '%tok%'` on lower(content) is `asciiLower(content).includes(tok)`. */
export function asciiLower(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}
