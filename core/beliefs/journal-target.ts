/**
 * After the journal restores an alias row (undo or redo of a merge), the entities it names are
 * replayed from the delta log, so the dimensions agree with the alias table again. That also keeps
 * any observation ingested after the merge (it is re-attributed, not lost). The store restores the
 * rows themselves (core/store/sqlite/belief-journal-targets.ts).
 *
 * This follow-up takes effect only where a store is opened with it (OpenOptions.journalFollowUps):
 * the API session does so for every door, and a caller opening an Engine itself passes it.
 */
import { ALIAS_NS } from '../model/belief-journal-keys.js';
import type { AliasRow, JournalFollowUp } from '../store/port/port.js';
import { BeliefModel } from './model.js';
import { rejectedFollowUp } from './rejected.js';

const aliasFollowUp: JournalFollowUp = {
  ns: ALIAS_NS,
  afterRestore(store, alias, image, expected) {
    const names = [alias];
    if (image) names.push((image as AliasRow).canonical);
    if (expected) names.push((expected as AliasRow).canonical);
    new BeliefModel(store).rebuild(names);
  },
};

/** What the belief layer does after the journal restores its rows (alias rows; the rejected set, a meta value). */
export const beliefJournalFollowUps: readonly JournalFollowUp[] = [aliasFollowUp, rejectedFollowUp((store, entities) => new BeliefModel(store).rebuild(entities))];
