import { MnemoError } from '../../errors.js';
import type { retentionContract } from '../contract/retention.js';
import type { HandlersFor } from './types.js';

const todo = (): never => {
  throw new MnemoError('internal', 'not implemented yet');
};

export const retentionHandlers: HandlersFor<typeof retentionContract> = {
  'retention.list': todo,
  'retention.curve': todo,
  'retention.prune': todo,
};
