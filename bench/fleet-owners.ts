/**
 * `npm run bench -- fleet-owners [--size 100000] [--runs 7] [--pg] [--json]`
 *
 * The Fleet view's rows per owner (`fleet.owners`: ownerSummaries, one grouped
 * statement per table) on the cached demo store (bench/lib/demo-store.ts), against what the
 * Memories view already reads in the same run as the baseline: the facet counts (types, owners,
 * statuses and a tag sample: memoryFacets('live')). Medians of --runs after one warm-up run, on a
 * SQLite copy; with --pg also on a PostgreSQL copy of it (a throwaway cluster unless
 * MNEMO_TEST_PG_URL names a server). With --json the last line is one JSON object.
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { openStoreAt } from '../core/store/open-location.js';
import { startPg, type PgServer } from '../support/pg-cluster.js';
import { backendCopies, type BackendCopies } from './lib/backend-copies.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';
import { ownerSummaries } from '../core/store/queries/owner-summaries.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '7' },
    pg: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const NOW = 1_780_000_000;
const size = Number(values.size);
const runs = Number(values.runs);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

interface Figures {
  owners: number;
  truncated: boolean;
  owner_rows_ms: number[];
  facets_ms: number[];
  owner_rows_p50_ms: number;
  facets_p50_ms: number;
  /** owner rows / facets: what the new section costs against the counts the list already makes. */
  ratio: number;
}

function timed(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function measure(location: string): Figures {
  const store = openStoreAt(location, { clock: fixedClock(NOW), readonly: true });
  try {
    const q = store.queries;
    const first = ownerSummaries(store, 1000); // warm-up: the page cache, the statements
    q.memoryFacets('live', 200);
    const rows: number[] = [];
    const facets: number[] = [];
    // Alternating, so a slow moment of the shared machine falls on both.
    for (let i = 0; i < runs; i++) {
      rows.push(timed(() => ownerSummaries(store, 1000)));
      facets.push(timed(() => q.memoryFacets('live', 200)));
    }
    const round = (xs: number[]) => xs.map((x) => Math.round(x));
    const [r, f] = [median(rows), median(facets)];
    return { owners: first.owners.length, truncated: first.truncated, owner_rows_ms: round(rows), facets_ms: round(facets), owner_rows_p50_ms: Math.round(r), facets_p50_ms: Math.round(f), ratio: Number((r / f).toFixed(2)) };
  } finally {
    store.close();
  }
}

const report = (name: string, f: Figures) =>
  log(`  ${name}: owner rows p50 ${f.owner_rows_p50_ms} ms (${f.owner_rows_ms.join(', ')}), facets p50 ${f.facets_p50_ms} ms (${f.facets_ms.join(', ')}), ratio ${f.ratio}; ${f.owners} owners${f.truncated ? ' (truncated)' : ''}`);

log(`fleet-owners: ${size.toLocaleString('en')} memories, ${runs} runs, load average ${load()}`);
const figures: Record<string, Figures> = {};
let server: PgServer | null = null;
let copies: BackendCopies | null = null;
let ownCopy: string | null = null;
try {
  if (values.pg) {
    server = startPg();
    copies = backendCopies(server.url, size, NOW, log);
  }
  const sqlite = copies?.sqlite ?? (ownCopy = demoStoreCopy(size, NOW, log));
  figures['sqlite'] = measure(sqlite);
  report('sqlite', figures['sqlite']);
  if (copies) {
    figures['postgres'] = measure(copies.postgres);
    report('postgres', figures['postgres']);
  }
} finally {
  copies?.dispose();
  server?.stop();
  // The copy is as big as the cached store (about 1 GB at 100k): never leave it behind.
  if (ownCopy) rmSync(dirname(ownCopy), { recursive: true, force: true });
}
log(`load average at the end ${load()}`);
if (values.json) console.log(JSON.stringify({ size, runs, load_end: loadavg(), ...figures }));
