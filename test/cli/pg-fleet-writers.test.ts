/**
 * Eight agents, each its own `mnemo mcp` process with its own owner, write one PostgreSQL store at
 * once while browser mode (`mnemo serve`) follows the live refresh and lists (support/fleet-run.ts;
 * the full-size run and its timings are `npm run bench -- fleet-writers`). Against a real server.
 *
 * What could go wrong: a write lost or refused under concurrent writers (a lock, a serialization
 * failure, a sequence clash), an agent not finding the memory it has just written, the workbench's
 * list never hearing the other processes' writes (no feed, a watermark stuck behind a transaction).
 */
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../core/model/memory.js';
import { openStoreAt } from '../../core/store/open-location.js';
import { runFleet } from '../../support/fleet-run.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { pgServer } from '../helpers/pg-server.js';

const server = pgServer();

describe.skipIf(server.unavailable)('eight agents writing one PostgreSQL store through mnemo mcp', () => {
  it('loses nothing, each agent finds its own writes at once, and the open list shows every write', async () => {
    const store = freshSchemaUrl(server.url, 'fleet_test');
    // Rows an owner filter on w0@fleet would also match (shared, the bare role, another instance):
    // the count per owner must leave them out, or it would hide lost writes on a seeded store.
    const seeded = openStoreAt(store, { create: true });
    for (const owner of ['', 'w0', 'w0@elsewhere']) seeded.add(createMemory({ content: `seeded row of ${owner || 'nobody'}`, owner }, 1_780_000_000), null);
    seeded.close();
    const r = await runFleet({ store, root: process.cwd(), agents: 8, perAgent: 12, recallEvery: 1 });
    expect(r.first_errors).toEqual([]);
    expect(r.errors).toBe(0);
    expect(r.rows_per_owner).toEqual(Object.fromEntries(Array.from({ length: 8 }, (_x, i) => [`w${i}@fleet`, 12])));
    expect(r.lost_writes).toBe(0);
    expect(r.acknowledged_per_owner).toEqual(r.rows_per_owner);
    expect(r.stopped_early).toBe(false);
    expect(r.recalls).toBe(96);
    expect(r.own_write_misses).toBe(0);
    expect(r.list_never_shown).toBe(0);
    expect(r.viewer_errors).toBe(0);
  }, 300_000);
});
