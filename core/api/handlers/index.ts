/**
 * Every handler, one per contract method; the type below fails to compile if one is missing. Each
 * method `prefix.name` is handled in the file named after its prefix, like its contract.
 */
import type { Contract } from '../contract/index.js';
import type { HandlersFor } from './types.js';
import { accessHandlers } from './access.js';
import { beliefsHandlers } from './beliefs.js';
import { curationHandlers } from './curation.js';
import { edgeHandlers } from './edge.js';
import { feedHandlers } from './feed.js';
import { fleetHandlers } from './fleet.js';
import { graphHandlers } from './graph.js';
import { intentsHandlers } from './intents.js';
import { journalHandlers } from './journal.js';
import { labHandlers } from './lab.js';
import { memoryHandlers } from './memory.js';
import { overviewHandlers } from './overview.js';
import { profilesHandlers } from './profiles.js';
import { recallHandlers } from './recall.js';
import { reflectHandlers } from './reflect.js';
import { retentionHandlers } from './retention.js';
import { reviewHandlers } from './review.js';
import { statsHandlers } from './stats.js';
import { storeHandlers } from './store.js';
import { todosHandlers } from './todos.js';

/** Each prefix file's handlers, keyed by the file's name (test/unit/api-layout.test.ts holds them to it). */
export const handlersByFile = {
  access: accessHandlers,
  beliefs: beliefsHandlers,
  curation: curationHandlers,
  edge: edgeHandlers,
  feed: feedHandlers,
  fleet: fleetHandlers,
  graph: graphHandlers,
  intents: intentsHandlers,
  journal: journalHandlers,
  lab: labHandlers,
  memory: memoryHandlers,
  overview: overviewHandlers,
  profiles: profilesHandlers,
  recall: recallHandlers,
  reflect: reflectHandlers,
  retention: retentionHandlers,
  review: reviewHandlers,
  stats: statsHandlers,
  store: storeHandlers,
  todos: todosHandlers,
} as const;

export const handlers: HandlersFor<Contract> = {
  ...accessHandlers,
  ...beliefsHandlers,
  ...curationHandlers,
  ...edgeHandlers,
  ...feedHandlers,
  ...fleetHandlers,
  ...graphHandlers,
  ...intentsHandlers,
  ...journalHandlers,
  ...labHandlers,
  ...memoryHandlers,
  ...overviewHandlers,
  ...profilesHandlers,
  ...recallHandlers,
  ...reflectHandlers,
  ...retentionHandlers,
  ...reviewHandlers,
  ...statsHandlers,
  ...storeHandlers,
  ...todosHandlers,
};
