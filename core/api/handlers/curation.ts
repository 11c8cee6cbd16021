import { findDuplicates } from '../../engine/duplicates.js';
import { parseOwnerScope } from '../../model/owner.js';
import type { curationContract } from '../contract/curation.js';
import type { HandlersFor } from './types.js';

export const curationHandlers: HandlersFor<typeof curationContract> = {
  'curation.duplicates': (input, session) =>
    findDuplicates(session.engine(), { scope: parseOwnerScope(input.owner), same_owner: input.same_owner, dismissed: input.dismissed, offset: input.offset, limit: input.limit }),
};
