import { MnemoError } from '../../errors.js';
import type { recallContract } from '../contract/recall.js';
import type { HandlersFor } from './types.js';

const todo = (): never => {
  throw new MnemoError('internal', 'not implemented yet');
};

export const recallHandlers: HandlersFor<typeof recallContract> = {
  'recall.explain': todo,
  'recall.run': todo,
  'recall.search': todo,
  'recall.inject': todo,
  'recall.whyNot': todo,
  'recall.profile': todo,
};
