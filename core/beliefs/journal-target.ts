/**
 * Undo and redo of alias merges and rejections. Only the alias and rejection rows are journalled:
 * dimensions and what each delta derived are functions of the delta log and the alias table, so
 * after a row is restored the affected entities are replayed from the log. That also keeps any
 * observation ingested after the merge (it is re-attributed, not lost).
 *
 * These targets take effect only where a store is opened with them (OpenOptions.journalTargets):
 * the API session does so for every door, and a caller opening an Engine itself passes them.
 */
import type { JournalTarget } from '../store/journal.js';
import { aliasRowIn, BeliefTables, rejectionRowIn } from '../store/belief-tables.js';
import type { MemoryStore } from '../store/store.js';
import { BeliefModel } from './model.js';
import type { AliasRow } from '../store/port.js';

export const ALIAS_NS = 'belief-alias';
export const REJECTION_NS = 'belief-reject';
export const PAIR_SEP = '\u0001';

const aliasTarget: JournalTarget<MemoryStore> = {
  ns: ALIAS_NS,
  snapshot: (db, alias) => aliasRowIn(db, alias),
  restore(store: MemoryStore, alias: string, image: unknown, expected: unknown) {
    const tables = new BeliefTables(store);
    if (image === null) tables.deleteAlias(alias);
    else tables.putAlias(image as AliasRow);
    const names = [alias];
    if (image) names.push((image as AliasRow).canonical);
    if (expected) names.push((expected as AliasRow).canonical);
    new BeliefModel(store).rebuild(names);
  },
};

const rejectionTarget: JournalTarget<MemoryStore> = {
  ns: REJECTION_NS,
  snapshot: (db, key) => {
    const [a, b] = key.split(PAIR_SEP) as [string, string];
    return rejectionRowIn(db, a, b);
  },
  restore(store: MemoryStore, key: string, image: unknown) {
    const [a, b] = key.split(PAIR_SEP) as [string, string];
    const tables = new BeliefTables(store);
    if (image === null) tables.deleteRejection(a, b);
    else tables.putRejection(a, b, (image as { rejected_at: number }).rejected_at);
  },
};

/** The belief rows a store's journal must know to undo and redo alias merges and rejections. */
export const beliefJournalTargets: readonly JournalTarget<MemoryStore>[] = [aliasTarget, rejectionTarget];
