/**
 * Which copy survives a merge. One rule for reflection and for the curator: the older memory
 * (earlier `created_at`, then the smaller id) absorbs the newer, because it is the copy that other
 * memories and the access history already point at, and the one nooa's reflection keeps.
 */
export interface MergeCandidate {
  id: string;
  created_at: number;
}

/** Sorts the survivor first. */
export function compareMergeSurvivor(a: MergeCandidate, b: MergeCandidate): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function defaultSurvivor<T extends MergeCandidate>(memories: readonly T[]): T | undefined {
  return [...memories].sort(compareMergeSurvivor)[0];
}

/** The distinct owners of a merge group, in first-seen order (exact comparison, as everywhere else). */
export function mergeOwners(memories: readonly { owner: string }[]): string[] {
  return [...new Set(memories.map((m) => m.owner))];
}
