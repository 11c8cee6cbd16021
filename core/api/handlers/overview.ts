import { overviewFacets, retentionScatter } from '../../observe/overview.js';
import type { overviewContract } from '../contract/overview.js';
import type { HandlersFor } from './types.js';
import { maintenanceHistory } from '../../store/queries/maintenance-log.js';

export const overviewHandlers: HandlersFor<typeof overviewContract> = {
  'overview.facets': (_input, session) => {
    const engine = session.reading();
    return overviewFacets(engine.store, engine.now());
  },
  'overview.scatter': (input, session) => {
    const engine = session.reading();
    return retentionScatter(engine.store, engine.now(), input.sample);
  },
  'overview.maintenance': (input, session) => ({ rows: maintenanceHistory(session.reading().store, input.limit) }),
};
