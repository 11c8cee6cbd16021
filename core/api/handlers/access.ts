import { MnemoError } from '../../errors.js';
import type { accessContract } from '../contract/access.js';
import type { HandlersFor } from './types.js';

const todo = (): never => {
  throw new MnemoError('internal', 'not implemented yet');
};

export const accessHandlers: HandlersFor<typeof accessContract> = {
  'access.list': todo,
  'access.replay': todo,
  'access.deref': todo,
  'access.reinforce': todo,
};
