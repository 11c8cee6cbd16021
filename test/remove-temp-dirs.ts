/**
 * Runs in every project before each test file (vitest.config.ts `setupFiles`): when the file's own
 * afterAll hooks have stopped its servers and children, the folders it made with `tempDir` go.
 * Vitest runs after-hooks in reverse order, so this one, registered first, runs last.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../support/temp-dirs.js';

afterAll(() => {
  removeTempDirs();
});
