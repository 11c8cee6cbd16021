import { defineConfig } from 'vitest/config';

/**
 * One project per kind of test (test/README.md says which goes where), so a run can pick the kind
 * it needs: `npx vitest run --project unit` starts in seconds, `npm test` runs every project.
 * Only e2e needs the built renderer, so only e2e has the global setup that builds it.
 */
const kinds = ['unit', 'store', 'cli'] as const;

export default defineConfig({
  test: {
    // Shared by every project (each says `extends: true`).
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The skip summary says which tests did not run and why (data that cannot be committed).
    reporters: ['default', './test/reporters/skip-summary.ts'],
    projects: [
      ...kinds.map((name) => ({ extends: true as const, test: { name, include: [`test/${name}/**/*.test.ts`] } })),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // The browser-mode tests share one built renderer; build it once (when stale) before they run.
          globalSetup: ['test/e2e/global-setup.ts'],
          // expect.poll waits for a page to settle, not for a speed: 1 s (Vitest's default) failed
          // on a loaded 2-core CI machine while a view fetched its titles, so wait as long as a user would.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
