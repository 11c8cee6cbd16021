/**
 * The detail view's access counters in words. Every counter says what it counts, in the same
 * words: the creation is not an access; "touching" accesses (recalled, searched, reinforced,
 * deref) move recency and strength and are what the record's access_count counts; injections and
 * reflection reads are logged but touch nothing.
 */
import type { AccessTally } from '../../../core/api/contract/index.js';
import { plural } from '../../api/errors.js';

export const TOUCHING_HINT = 'Touching accesses (recalled, searched, reinforced, deref) refresh recency and strength; injections and reflection reads are logged but touch nothing.';

/** "3 accesses logged, 2 of them touching", plus the touching ones the record counts but no log holds. */
export function loggedAccessesText(t: AccessTally): string {
  let s: string;
  if (t.logged === 0) s = 'no access logged';
  else if (t.touching === t.logged) s = `${plural(t.logged, 'access', 'accesses')} logged, ${t.logged === 1 ? 'a touching one' : 'all touching'}`;
  else if (t.touching === 0) s = `${plural(t.logged, 'access', 'accesses')} logged, ${t.logged === 1 ? 'not touching' : 'none touching'}`;
  else s = `${plural(t.logged, 'access', 'accesses')} logged, ${t.touching} of them touching`;
  if (t.touching_unlogged > 0) s += ` (the record counts ${t.touching_in_all} touching in all: ${t.touching_unlogged} predate the logs)`;
  return s;
}

/** The ring's heading: its slots, and whether the creation entry is still among them. */
export function ringText(log: readonly { channel: string }[], cap: number): string {
  const creation = log.some((e) => e.channel === 'created');
  const accesses = log.length - (creation ? 1 : 0);
  const what = creation ? (accesses ? `the creation and ${plural(accesses, 'access', 'accesses')}` : 'the creation only') : plural(accesses, 'access', 'accesses');
  return `${log.length} of ${cap} slots, newest first: ${what}`;
}

/** The fields' counters: the touching ones add up to access_count; injections are apart. */
export function touchingFieldText(m: { access_count: number; recalled_count: number; searched_count: number; reinforced_count: number; deref_count: number }): string {
  return `${m.access_count} (recalled ${m.recalled_count}, searched ${m.searched_count}, reinforced ${m.reinforced_count}, deref ${m.deref_count})`;
}

export function injectionsFieldText(injected: number): string {
  return `${injected} (not touching: an injection moves neither recency nor strength)`;
}
