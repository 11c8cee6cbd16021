import { defineConfig } from 'vitest/config';

/**
 * One project per kind of test (test/README.md says which goes where), so a run can pick the kind
 * it needs: `npm run test:unit` is the fast loop, `npm test` runs every project.
 * Only e2e needs the built renderer, so only e2e has the global setup that builds it.
 */
const kinds = ['store', 'cli'] as const;

/**
 * The suites that run a second time on PostgreSQL (support/test-backend.ts): each makes its stores
 * through the fixture helpers and reaches them only through the engine and its doors, so the same
 * assertions hold on either backend. The `postgres` project's name marks their results.
 */
export const POSTGRES_SUITES = [
  // parity with nooa-memory v0.0.9: recall, explain, forgetting, usage, KPIs, the reflection pass
  'test/unit/recall-conformance.test.ts',
  'test/unit/reflect-parity.test.ts',
  'test/cli/recall-cli.test.ts',
  // the library, the API and MCP (in process and over stdio), owners, prospective memory, the store's owners (Fleet)
  'test/unit/agent-memory.test.ts',
  'test/unit/agent-recall.test.ts',
  'test/unit/owner-case.test.ts',
  'test/unit/api.test.ts',
  'test/unit/mcp-server.test.ts',
  'test/unit/mcp-owners.test.ts',
  'test/unit/mcp-tool-schemas.test.ts',
  'test/unit/prospective-intents.test.ts',
  'test/unit/prospective-todos.test.ts',
  'test/unit/prospective-api.test.ts',
  'test/unit/fleet-owners.test.ts',
  // hostile input at the API, import and MCP doors: typed errors only, all or nothing
  'test/unit/fuzz-doors.test.ts',
  'test/e2e/mcp-stdio.test.ts',
  // the API's views: overview, facets, graph, selection, the journal's dependents, reflection, profiles
  'test/unit/overview.test.ts',
  'test/unit/facet-counts.test.ts',
  'test/unit/graph-view.test.ts',
  'test/unit/select-matching.test.ts',
  'test/unit/journal-dependents-api.test.ts',
  'test/unit/reflect-generative.test.ts',
  'test/cli/reflect-cli.test.ts',
  'test/cli/profiles-cli.test.ts',
  'test/cli/cli.test.ts',
  // time travel: the memory detail, retention and replay as of an instant; show/list/graph --at, replay, diff
  'test/store/time-travel-access.test.ts',
  'test/store/time-travel-retention.test.ts',
  'test/store/time-travel-indexes.test.ts',
  'test/cli/time-travel-cli.test.ts',
  // the workbench in Chromium, browser mode: lists and live refresh, curation with undo, the
  // journal's dependents, reviewing and committing a reflection, the scorer lab, agent credentials
  'test/e2e/workbench-e2e.test.ts',
  'test/e2e/curation-e2e.test.ts',
  'test/e2e/history-dependents-e2e.test.ts',
  'test/e2e/review-commit-e2e.test.ts',
  'test/e2e/lab-e2e.test.ts',
  'test/e2e/credentials-e2e.test.ts',
  // the conflict queue and its resolutions through the API, the CLI and MCP; recall of superseded memories
  'test/unit/conflicts-api.test.ts',
  'test/unit/conflicts-beliefs.test.ts',
  'test/unit/mcp-conflicts.test.ts',
  'test/cli/conflicts-cli.test.ts',
  'test/unit/conflicts-detector.test.ts',
  'test/e2e/conflicts-e2e.test.ts',
];

export default defineConfig({
  test: {
    // Shared by every project (each says `extends: true`).
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each test file's temporary folders go when it ends; left behind they filled the disk.
    setupFiles: ['test/remove-temp-dirs.ts'],
    // A test that reads data the repository cannot hold (the nooa-memory reference package beside the
    // checkout, LoCoMo, the belief-stream dev set) carries this tag and skips, saying why, without it.
    // .ci/run runs the whole suite on a fresh clone, where they skip, then only these beside the data.
    tags: [{ name: 'external-data', description: 'reads data that is not in the repository (nooa-memory reference, LoCoMo, belief-stream dev); skips without it' }],
    // The skip summary says which tests did not run and why (data that cannot be committed).
    reporters: ['default', './test/reporters/skip-summary.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // A unit test file runs in a worker that ran other files before it, not in a fresh one:
          // importing the engine again for each of 120 files was more than half of the tier's CPU
          // time. So a unit test leaves nothing behind (it restores what it changes in process.env
          // and globals), and a module it mocks (`electron`) is one no other unit test loads for real.
          isolate: false,
        },
      },
      ...kinds.map((name) => ({ extends: true as const, test: { name, include: [`test/${name}/**/*.test.ts`] } })),
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          env: { MNEMO_TEST_BACKEND: 'postgres' },
          // The server first; the renderer build for the browser-mode suites as the e2e project does.
          globalSetup: ['test/pg-global-setup.ts', 'test/e2e/global-setup.ts'],
          expect: { poll: { timeout: 15_000 } },
        },
      },
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
