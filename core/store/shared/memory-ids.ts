/**
 * The rule that turns what a user typed into a memory id, for either adapter (each answers the two
 * lookups with its own SQL): an exact id wins; otherwise a literal prefix of at least 6 characters
 * (shorter ones would match too much to be meant); two matches are an error, never a guess. What
 * nothing matching says is read above the port (queries/memory-lookups.ts, requireMemoryId).
 */
import { badInput } from '../../errors.js';

export interface MemoryIdLookups {
  exists(id: string): boolean;
  /** At most two ids starting with `prefix`, matched literally (`%` and `_` are no wildcards). */
  idsWithPrefix(prefix: string): string[];
}

/** The id `idOrPrefix` names, or null when nothing matches. */
export function resolveMemoryId(idOrPrefix: string, lookups: MemoryIdLookups): string | null {
  if (typeof idOrPrefix !== 'string' || idOrPrefix === '') return null;
  if (lookups.exists(idOrPrefix)) return idOrPrefix;
  if (idOrPrefix.length < 6) return null;
  const ids = lookups.idsWithPrefix(idOrPrefix);
  if (ids.length > 1) {
    throw badInput(`id prefix ${JSON.stringify(idOrPrefix)} is ambiguous (matches ${ids[0]} and ${ids[1]}); give more characters`, { field: 'id' });
  }
  return ids[0] ?? null;
}
