/**
 * Which engine worker a call runs in (docs/architecture.md, "Where the engine runs"). A host runs
 * its workers in lanes, and a lane's work never waits for another lane's:
 *
 * - `light`: reads that never build a derived index (store facts, the list's first page, a memory,
 *   the journal, the Overview's counts): answered within a query or two whatever else runs. This
 *   worker holds no in-memory index, so it costs little memory.
 * - `index`: the reads and short writes that rank over the derived indexes (explain, recall, the
 *   graph, the list's text search) and every call not named elsewhere; its indexes are built here,
 *   in steps, the first time they are asked for.
 * - `jobs`: the long work (reflection plans, applies, undo and redo, erasures, lab fits and sweeps,
 *   belief ingests, store-wide scans, bulk changes) and the plans it keeps for review.
 * - `agents`: MCP sessions, each pinned to one of the lane's workers (cli/mcp/http-sessions.ts).
 *
 * A job's progress and its cancel never wait for the job's worker: the host answers them itself
 * (engine-host.ts), from what the worker reports and by writing to the shared cancel board.
 */
import type { MethodName } from '../api/contract/index.js';

export type Lane = 'light' | 'index' | 'jobs' | 'agents';

/** Reads that a test (test/unit/host-lanes.test.ts) holds to building no derived index. */
const LIGHT: ReadonlySet<string> = new Set<MethodName>([
  'store.info',
  'store.replicas',
  'memory.get',
  'memory.facets',
  'memory.mergeOrder',
  'journal.history',
  'journal.rows',
  'journal.dependents',
  'overview.facets',
  'overview.scatter',
  'overview.maintenance',
  'stats.basic',
  'stats.kpis',
  'stats.usage',
  'stats.rowsVsReads',
  'access.list',
  'access.credentials',
  'feed.status',
  'profiles.list',
  'profiles.get',
  'profiles.diff',
  'recall.profile',
  'reflect.endpoints',
  'retention.curve',
  'intents.list',
  'todos.list',
  'lab.knobs',
  'lab.queries',
]);

/** Light unless the input asks for text search (an FTS index built on first use) or another instant (a past engine). */
const LIGHT_WITHOUT_TEXT: ReadonlySet<string> = new Set<MethodName>(['memory.list', 'memory.ids']);

/** Long work, and the methods that read what it keeps (plans under review). */
const JOBS: ReadonlySet<string> = new Set<MethodName>([
  'reflect.plan',
  'reflect.apply',
  'reflect.progress',
  'reflect.cancel',
  'review.plan',
  'review.items',
  'review.counts',
  'review.commit',
  'journal.undo',
  'journal.redo',
  'journal.progress',
  'journal.cancel',
  'lab.sweep',
  'lab.fit',
  'lab.fitProgress',
  'lab.fitCancel',
  'beliefs.ingest',
  'beliefs.aliases.plan',
  'beliefs.aliases.apply',
  'retention.prune',
  'feed.prune',
  'memory.erasePlan',
  'memory.erase',
]);

/** Bulk changes past this many ids are long work too (a whole-store archive is minutes at 100k). */
export const BULK_IDS = 1000;
const BULK_BY_IDS: ReadonlySet<string> = new Set<MethodName>(['memory.archive', 'memory.restore', 'memory.tag', 'memory.forget', 'memory.delete', 'memory.merge', 'edge.addMany']);

function field(input: unknown, key: string): unknown {
  return input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
}

function manyIds(input: unknown): boolean {
  for (const key of ['ids', 'sources']) {
    const ids = field(input, key);
    if (Array.isArray(ids) && ids.length > BULK_IDS) return true;
  }
  return false;
}

/** The lane of an API call in a host with light, index and jobs lanes (browser mode, the desktop app). */
export function laneOf(method: string, input: unknown): Exclude<Lane, 'agents'> {
  if (JOBS.has(method)) return 'jobs';
  if (BULK_BY_IDS.has(method) && manyIds(input)) return 'jobs';
  const at = field(input, 'at');
  if (LIGHT.has(method) && at === undefined) return 'light';
  if (LIGHT_WITHOUT_TEXT.has(method) && at === undefined) {
    const text = field(input, 'text');
    if (typeof text !== 'string' || text.trim() === '') return 'light';
  }
  return 'index';
}

/** The methods laneOf sends to the light lane whatever their input (for the test that holds them to it). */
export const LIGHT_METHODS: readonly string[] = [...LIGHT, ...LIGHT_WITHOUT_TEXT];

/**
 * Progress the host answers from what the workers report, so a poll never waits for the job it
 * asks about. Only the live store's (an `at` goes to the worker).
 */
export const MIRRORED_PROGRESS: ReadonlySet<string> = new Set<MethodName>(['reflect.progress', 'journal.progress', 'lab.fitProgress', 'recall.indexBuild']);

/** Each cancel method and the calls it cancels (the host writes their ids to the cancel board). */
export const CANCELS: Readonly<Record<string, { calls: readonly string[]; progress: string | null }>> = {
  'reflect.cancel': { calls: ['reflect.plan', 'review.plan'], progress: null },
  'journal.cancel': { calls: ['reflect.apply', 'review.commit', 'journal.undo', 'journal.redo', 'memory.erase'], progress: 'journal.progress' },
  'lab.fitCancel': { calls: ['lab.fit'], progress: 'lab.fitProgress' },
};
