/** The typed error a call throws, or null when it returns; anything thrown that is not a MnemoError is rethrown. */
import { MnemoError } from '../../core/errors.js';

export function errorOf(fn: () => unknown): MnemoError | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof MnemoError) return err;
    throw err;
  }
}
