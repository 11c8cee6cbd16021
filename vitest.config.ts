import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The renderer e2e tests share one built bundle; build it once before any test runs.
    globalSetup: ['test/global-setup.ts'],
    // The skip summary says which tests did not run and why (data that cannot be committed).
    reporters: ['default', './test/reporters/skip-summary.ts'],
  },
});
