import { MnemoError } from '../../errors.js';
import type { observeContract } from '../contract/observe.js';
import type { HandlersFor } from './types.js';

const todo = (): never => {
  throw new MnemoError('internal', 'not implemented yet');
};

export const observeHandlers: HandlersFor<typeof observeContract> = {
  'stats.kpis': todo,
  'stats.usage': todo,
  'stats.rowsVsReads': todo,
};
