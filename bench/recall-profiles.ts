/**
 * `npm run bench -- recall-profiles [--db PATH] [--k N] [--json]`
 *
 * What the `mnemo` profile's differences from nooa-0.0.9 do to retrieval quality, measured on
 * the same store (default: a copy of the nooa v0.0.9 fixture):
 *   - title queries: each live memory with a title is queried by its title; hit = it is in the
 *     top k (hops 1). The subset whose title words are absent from the content is where the
 *     keyword leg reading titles matters;
 *   - archived surfacing: how many archived memories reach the top k over a query set (the
 *     fixture's explain queries, or content prefixes), at hops 1 and 2;
 *   - agreement: mean overlap of the two profiles' top k over the same queries.
 */
import { connectionOf } from '../core/store/sqlite/connection.js';
import { copyFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FIXTURE_DIR } from '../support/fixture.js';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { hashTokens } from '../core/embed/hashing.js';
import { explain } from '../core/recall/explain.js';
import type { RecallProfileName } from '../core/recall/types.js';
import { allMemories } from '../core/store/queries/memory-lookups.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, k: { type: 'string', default: '10' }, json: { type: 'boolean', default: false } } });
const json = values.json === true;
const log = (s: string) => (json ? console.error(s) : console.log(s));
const k = Number(values.k);

const fixtureDir = FIXTURE_DIR;
let path = values.db;
let now: number;
let fixtureQueries: string[] | null = null;
if (!path) {
  path = join(tmpdir(), `mnemo-bench-profiles-${process.pid}.sqlite`);
  copyFileSync(join(fixtureDir, 'store.sqlite'), path);
  const exp = JSON.parse(readFileSync(join(fixtureDir, 'expected.json'), 'utf8')) as { now: number; explain: { query: string }[] };
  now = exp.now;
  fixtureQueries = [...new Set(exp.explain.map((c) => c.query))].filter((q) => q.trim() !== '');
} else {
  const probe = Engine.open(path, { readonly: true });
  now = (connectionOf(probe.store).prepare('SELECT max(last_accessed) AS t FROM memories').get() as { t: number }).t;
  probe.close();
}
const engine = Engine.open(path, { readonly: true, clock: fixedClock(now) });
const memories = allMemories(engine.store, { includeArchived: true });
const live = memories.filter((m) => !m.archived);
const archived = new Set(memories.filter((m) => m.archived).map((m) => m.id));
const top = (query: string, profile: RecallProfileName, hops: number) => explain(engine, { query, k, hops, profile }).rows.map((r) => r.id);

// Title queries.
const titled = live.filter((m) => m.title && hashTokens(m.title).length > 0).slice(0, 2000);
const hiddenTitle = titled.filter((m) => hashTokens(m.title!).some((t) => !m.content.toLowerCase().includes(t)));
const hitRate = (set: typeof titled, profile: RecallProfileName) => (set.length ? set.filter((m) => top(m.title!, profile, 1).includes(m.id)).length / set.length : 0);
const title = {
  queries: titled.length,
  nooa: hitRate(titled, 'nooa-0.0.9'),
  mnemo: hitRate(titled, 'mnemo'),
  hidden_queries: hiddenTitle.length,
  hidden_nooa: hitRate(hiddenTitle, 'nooa-0.0.9'),
  hidden_mnemo: hitRate(hiddenTitle, 'mnemo'),
};

// Archived surfacing and agreement.
const queries = fixtureQueries ?? live.filter((_, i) => i % Math.max(1, Math.floor(live.length / 200)) === 0).map((m) => m.content.split(/\s+/).slice(0, 6).join(' '));
const surfacing = { queries: queries.length, nooa_hops1: 0, mnemo_hops1: 0, nooa_hops2: 0, mnemo_hops2: 0 };
let overlap = 0;
for (const q of queries) {
  for (const hops of [1, 2] as const) {
    const a = top(q, 'nooa-0.0.9', hops);
    const b = top(q, 'mnemo', hops);
    surfacing[`nooa_hops${hops}`] += a.filter((id) => archived.has(id)).length;
    surfacing[`mnemo_hops${hops}`] += b.filter((id) => archived.has(id)).length;
    if (hops === 1) overlap += b.filter((id) => a.includes(id)).length / Math.max(1, Math.max(a.length, b.length));
  }
}
const result = { db: values.db ?? 'nooa v0.0.9 fixture', k, title, archived_in_top_k: surfacing, top_k_overlap_hops1: overlap / Math.max(1, queries.length) };
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
log(`store: ${result.db}; ${live.length} live, ${archived.size} archived; k = ${k}`);
log(`title queries (${title.queries}): target in top ${k}: nooa ${pct(title.nooa)}, mnemo ${pct(title.mnemo)}`);
log(`  titles with words not in the content (${title.hidden_queries}): nooa ${pct(title.hidden_nooa)}, mnemo ${pct(title.hidden_mnemo)}`);
log(`archived memories in the top ${k} over ${queries.length} queries: hops 1 nooa ${surfacing.nooa_hops1} / mnemo ${surfacing.mnemo_hops1}; hops 2 nooa ${surfacing.nooa_hops2} / mnemo ${surfacing.mnemo_hops2}`);
log(`mean overlap of the two profiles' top ${k} (hops 1): ${pct(result.top_k_overlap_hops1)}`);
engine.close();
if (json) console.log(JSON.stringify(result));
