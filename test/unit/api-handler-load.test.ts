/**
 * The service imports a prefix's handlers when one of its methods is first called
 * (core/api/handlers/load.ts): every method gets the very handler index.ts composes, and once its
 * file is loaded, at once rather than as a promise.
 */
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../core/api/contract/index.js';
import { handlers } from '../../core/api/handlers/index.js';
import { handlerOf } from '../../core/api/handlers/load.js';

describe('handlers loaded per prefix', () => {
  it('gives every method its own handler, synchronously once its file is loaded', async () => {
    for (const m of METHOD_NAMES) {
      const first = await handlerOf(m);
      expect(first, m).toBe((handlers as Record<string, unknown>)[m]);
      expect(handlerOf(m), m).toBe(first);
    }
  });
});
