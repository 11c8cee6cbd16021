/** Every handler, one per contract method; the type below fails to compile if one is missing. */
import type { Contract } from '../contract/index.js';
import { memoryHandlers } from './memory.js';
import { statsHandlers } from './stats.js';
import { beliefsHandlers } from './beliefs.js';
import { storeHandlers } from './store.js';
import { reflectHandlers } from './reflect.js';
import type { HandlersFor } from './types.js';
import { graphHandlers } from './graph.js';
import { tagsHandlers } from './tags.js';
import { recallHandlers } from './recall.js';
import { accessHandlers } from './access.js';
import { retentionHandlers } from './retention.js';
import { observeHandlers } from './observe.js';
import { prospectiveHandlers } from './prospective.js';
import { overviewHandlers } from './overview.js';
import { fleetHandlers } from './fleet.js';
import { reviewHandlers } from './review.js';
import { curationHandlers } from './curation.js';

export const handlers: HandlersFor<Contract> = {
  ...storeHandlers,
  ...memoryHandlers,
  ...statsHandlers,
  ...reflectHandlers,
  ...graphHandlers,
  ...tagsHandlers,
  ...recallHandlers,
  ...accessHandlers,
  ...retentionHandlers,
  ...observeHandlers,
  ...prospectiveHandlers,
  ...beliefsHandlers,
  ...overviewHandlers,
  ...fleetHandlers,
  ...reviewHandlers,
  ...curationHandlers,
};
