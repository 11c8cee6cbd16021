/**
 * How the journal names the belief rows it keeps before- and after-images of: `belief-alias:<alias>`
 * and `belief-reject:<a>\u0001<b>` (a < b). The belief layer captures them before writing; the
 * store snapshots and restores them; both must spell them alike.
 */
export const ALIAS_NS = 'belief-alias';
export const REJECTION_NS = 'belief-reject';
/** Between the two names of a rejected pair: a character no entity name contains. */
export const PAIR_SEP = '\u0001';

export const aliasJournalKey = (alias: string): string => `${ALIAS_NS}:${alias}`;
export const rejectionJournalKey = (a: string, b: string): string => `${REJECTION_NS}:${a}${PAIR_SEP}${b}`;
