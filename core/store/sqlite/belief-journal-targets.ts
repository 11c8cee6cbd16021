/**
 * The belief rows the journal undoes and redoes: alias merges and rejected pairs. Only these rows
 * are journalled; dimensions and what each delta derived are functions of the delta log and the
 * alias table, so after an alias row is restored the belief layer replays the entities concerned
 * (its JournalFollowUp, handed to the store at open). The store can snapshot and restore the rows
 * on its own; a store opened without the alias follow-up refuses to restore alias rows rather than
 * leave the derived dimensions behind them.
 *
 * The targets are the same on every adapter: each supplies only how it reads and writes the two
 * kinds of row (BeliefJournalRows); SQLite's are below, PostgreSQL's are its belief tables.
 */
import { ALIAS_NS, PAIR_SEP, REJECTION_NS } from '../../model/belief-journal-keys.js';
import { aliasRowIn, BeliefTables, rejectionRowIn } from './belief-tables.js';
import { connectionOf } from './connection.js';
import type { JournalTarget } from '../shared/journal.js';
import type { AliasRow, BeliefWrites } from '../port/port.js';
import type { StoreHandle } from '../shared/store-handle.js';

/** What the journal reads and writes of the belief rows, on one adapter. */
export type BeliefJournalRows = Pick<BeliefWrites, 'alias' | 'putAlias' | 'deleteAlias' | 'rejection' | 'putRejection' | 'deleteRejection'>;

const pairOf = (key: string) => key.split(PAIR_SEP) as [string, string];

/** The alias and rejection targets over an adapter's rows. */
export function beliefJournalTargets<S extends StoreHandle>(rowsOf: (store: S) => BeliefJournalRows): [JournalTarget<S>, JournalTarget<S>] {
  const alias: JournalTarget<S> = {
    ns: ALIAS_NS,
    needsFollowUp: true,
    snapshot: (store, name) => rowsOf(store).alias(name),
    restore(store, name, image) {
      if (image === null) rowsOf(store).deleteAlias(name);
      else rowsOf(store).putAlias(image as AliasRow);
    },
  };
  const rejection: JournalTarget<S> = {
    ns: REJECTION_NS,
    snapshot: (store, key) => rowsOf(store).rejection(...pairOf(key)),
    restore(store, key, image) {
      const [a, b] = pairOf(key);
      if (image === null) rowsOf(store).deleteRejection(a, b);
      else rowsOf(store).putRejection(a, b, (image as { rejected_at: number }).rejected_at);
    },
  };
  return [alias, rejection];
}

/** SQLite's: a snapshot reads the bare connection (belief-tables.ts, aliasRowIn), a restore writes through the belief tables. */
function sqliteBeliefRows(store: StoreHandle): BeliefJournalRows {
  const tables = new BeliefTables(store);
  return {
    alias: (name) => aliasRowIn(connectionOf(store), name),
    rejection: (a, b) => rejectionRowIn(connectionOf(store), a, b),
    putAlias: (a) => tables.putAlias(a),
    deleteAlias: (name) => tables.deleteAlias(name),
    putRejection: (a, b, at) => tables.putRejection(a, b, at),
    deleteRejection: (a, b) => tables.deleteRejection(a, b),
  };
}

export const [beliefAliasTarget, beliefRejectionTarget] = beliefJournalTargets<StoreHandle>(sqliteBeliefRows);
