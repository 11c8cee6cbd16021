/**
 * How an index sidecar is named (index-sidecar.ts): beside a SQLite store, `<store file>.mnemo-index`,
 * and its parts' folder `<sidecar>.parts`. A module of its own, holding no SQL, so code above the
 * store port that walks folders of stores (the fleet listing) can tell Mnemo's caches from stores.
 */
export const SIDECAR_SUFFIX = '.mnemo-index';

export function sidecarPath(storePath: string): string {
  return `${storePath}${SIDECAR_SUFFIX}`;
}

/** Whether a file or folder name is an index sidecar or its parts' folder: Mnemo's own cache, never a store. */
export function isSidecarName(name: string): boolean {
  return name.endsWith(SIDECAR_SUFFIX) || name.endsWith(`${SIDECAR_SUFFIX}.parts`);
}
