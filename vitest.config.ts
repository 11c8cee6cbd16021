import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The renderer e2e tests share one built bundle; build it once before any test runs.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default'],
  },
});
