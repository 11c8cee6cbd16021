/**
 * The belief rows the journal undoes and redoes: alias merges and rejected pairs. Only these rows
 * are journalled; dimensions and what each delta derived are functions of the delta log and the
 * alias table, so after an alias row is restored the belief layer replays the entities concerned
 * (its JournalFollowUp, handed to the store at open). The store can snapshot and restore the rows
 * on its own; a store opened without the alias follow-up refuses to restore alias rows rather than
 * leave the derived dimensions behind them.
 */
import { ALIAS_NS, PAIR_SEP, REJECTION_NS } from '../model/belief-journal-keys.js';
import { aliasRowIn, BeliefTables, rejectionRowIn } from './belief-tables.js';
import { connectionOf } from './connection.js';
import type { JournalTarget } from './journal.js';
import type { AliasRow } from './port.js';

const pairOf = (key: string) => key.split(PAIR_SEP) as [string, string];

export const beliefAliasTarget: JournalTarget = {
  ns: ALIAS_NS,
  needsFollowUp: true,
  snapshot: (store, alias) => aliasRowIn(connectionOf(store), alias),
  restore(store, alias, image) {
    const tables = new BeliefTables(store);
    if (image === null) tables.deleteAlias(alias);
    else tables.putAlias(image as AliasRow);
  },
};

export const beliefRejectionTarget: JournalTarget = {
  ns: REJECTION_NS,
  snapshot: (store, key) => {
    const [a, b] = pairOf(key);
    return rejectionRowIn(connectionOf(store), a, b);
  },
  restore(store, key, image) {
    const [a, b] = pairOf(key);
    const tables = new BeliefTables(store);
    if (image === null) tables.deleteRejection(a, b);
    else tables.putRejection(a, b, (image as { rejected_at: number }).rejected_at);
  },
};
