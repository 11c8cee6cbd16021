/**
 * The belief layer (Nous's predictive world model): one BeliefModel per engine, plus the pieces
 * the doors use. What follows the journal's undo of an alias merge is beliefJournalFollowUps, handed to
 * a store when it is opened (see journal-target.ts).
 */
import { extensionKey, type Engine, type EngineReader } from '../engine/engine.js';
import { BeliefModel, type BeliefReader } from './model.js';

/** One belief model per engine (it holds nothing to release). */
const BELIEF_MODEL = extensionKey('beliefs', (engine) => new BeliefModel(engine.store));

export function beliefsOf(engine: Engine): BeliefModel {
  return engine.get(BELIEF_MODEL);
}

/** The engine's belief model, as a read handler sees it (the same instance, typed to read). */
export function beliefReaderOf(engine: EngineReader): BeliefReader {
  return engine.get(BELIEF_MODEL);
}

export { BeliefModel, type BeliefReader } from './model.js';
export { beliefJournalFollowUps } from './journal-target.js';
export * from './config.js';
export { parseObservationsJsonl, parseObservation, observationSchema, type Observation } from './observation.js';
export { readBelief, readEntity, type BeliefView, type ReadMode, type ReadOptions } from './read.js';
export { planAliases, type AliasPlan, type AliasProposal } from './identity.js';
export { applyAliasMerges, mergeOf, rejectAliasPair } from './aliases.js';
export { answerQueries, parseQueriesJsonl, type BeliefAnswer, type BeliefQuery } from './answer.js';
export { retrieve, type RetrievalResult } from './retrieval.js';
