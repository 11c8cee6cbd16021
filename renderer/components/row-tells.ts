/**
 * Rows you can tell apart: where titles tie (eight "Episode: webhooks spiked p99 latency…" rows),
 * each row shows what differs: its owner, its time, and its id's first characters.
 */

/** The heads that more than one row carries. */
export function tiedHeads(rows: readonly { head: string }[]): Set<string> {
  const seen = new Set<string>();
  const tied = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.head)) tied.add(r.head);
    seen.add(r.head);
  }
  return tied;
}

/** The id's first 8 characters, as the CLI shows it. */
export const idPrefix = (id: string): string => id.slice(0, 8);
