/**
 * One tally of a memory's accesses, so every counter of the detail view (the curve's caption, the
 * access ring's heading, the fields) counts the same things and names what it counts. The curve's
 * markers include the creation (nooa seeds the ring with a `created` entry) and non-touching reads
 * (injections, reflection reads); `access_count` counts touching accesses only, and only those
 * move recency and strength. Counting the three kinds under one word "accesses" is what made the
 * view read "3 accesses" next to "accesses 2".
 */
import { TOUCHING_CHANNELS, type AccessChannel } from '../model/enums.js';

export interface AccessTally {
  /** Accesses the curve knows (ring ∪ event table), the creation not counted. */
  logged: number;
  /** Of those, the touching ones (recalled, searched, reinforced, deref): they move recency and count in access_count. */
  touching: number;
  /** Of those, the ones that touch nothing (injected, reflected). */
  not_touching: number;
  /** The record's own uncapped count of touching accesses (nooa's access_count). */
  touching_in_all: number;
  /** Touching accesses the record counts but no log holds any more (a ring that rotated before the event table existed). */
  touching_unlogged: number;
  /** Logged accesses per channel, the creation not counted. */
  by_channel: Record<string, number>;
}

export function tallyAccesses(markers: readonly { channel: string }[], accessCount: number): AccessTally {
  const by: Record<string, number> = {};
  let touching = 0;
  let logged = 0;
  for (const m of markers) {
    if (m.channel === 'created') continue;
    logged++;
    by[m.channel] = (by[m.channel] ?? 0) + 1;
    if (TOUCHING_CHANNELS.has(m.channel as AccessChannel)) touching++;
  }
  return {
    logged,
    touching,
    not_touching: logged - touching,
    touching_in_all: accessCount,
    touching_unlogged: Math.max(0, accessCount - touching),
    by_channel: by,
  };
}
