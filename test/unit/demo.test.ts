import { connectionOf } from '../../core/store/sqlite/connection.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { generateDemo } from '../../core/demo/generate.js';
import { BeliefModel, readEntity } from '../../core/beliefs/index.js';
import { EDGE_TYPES, MEMORY_TYPES } from '../../core/model/enums.js';
import { tempDir } from '../../support/fixture.js';
import { checkNooaLayout } from '../helpers/nooa-layout.js';

const NOW = 1_780_000_000;

function build(size: number, seed: number) {
  const path = join(tempDir(), 'demo.sqlite');
  const store = MemoryStore.open(path, { create: true });
  const report = generateDemo(store, { size, seed, now: NOW });
  return { path, store, report };
}

describe('demo store generator', () => {
  it('covers every type, several owners, every edge type, months of accesses and near-duplicates', () => {
    const { path, store, report } = build(1500, 3);
    const db = connectionOf(store);
    const types = (db.prepare('SELECT DISTINCT type FROM memories').all() as { type: string }[]).map((r) => r.type).sort();
    expect(types).toEqual([...MEMORY_TYPES].sort());
    const owners = (db.prepare("SELECT DISTINCT owner FROM memories WHERE owner != ''").all() as { owner: string }[]).length;
    expect(owners).toBeGreaterThanOrEqual(4);
    expect((db.prepare("SELECT count(*) AS n FROM memories WHERE owner = ''").get() as { n: number }).n).toBeGreaterThan(0);
    const edgeTypes = (db.prepare('SELECT DISTINCT type FROM memory_edges').all() as { type: string }[]).map((r) => r.type).sort();
    expect(edgeTypes).toEqual([...EDGE_TYPES].sort());
    const span = db.prepare('SELECT min(ts) AS lo, max(ts) AS hi, count(*) AS n FROM mnemo_access_events').get() as { lo: number; hi: number; n: number };
    expect((span.hi - span.lo) / 86400).toBeGreaterThan(90);
    expect(span.n).toBe(report.access_events);
    expect(report.access_events / report.memories).toBeGreaterThan(8);
    expect(report.near_duplicates).toBeGreaterThan(10);
    const channels = (db.prepare('SELECT DISTINCT channel FROM mnemo_access_events').all() as { channel: string }[]).length;
    expect(channels).toBeGreaterThanOrEqual(5);
    expect((db.prepare('SELECT count(*) AS n FROM memories WHERE archived = 1').get() as { n: number }).n).toBeGreaterThan(0);
    store.close();
    expect(checkNooaLayout(path)).toEqual([]);
  });

  it('includes belief observations, so the Beliefs view is not empty on first start (issue 14 part 6)', () => {
    const { store, report } = build(300, 5);
    expect(report.belief_observations).toBeGreaterThanOrEqual(6 * 3 * 4);
    const beliefs = new BeliefModel(store);
    const entities = connectionOf(store).prepare('SELECT count(DISTINCT entity) AS n FROM mnemo_dimensions').get() as { n: number };
    expect(entities.n).toBeGreaterThanOrEqual(6);
    const view = readEntity(beliefs, 'billing', NOW);
    expect(view.map((v) => v.attribute).sort()).toEqual(['deploy_tool', 'main_env', 'owner']);
    store.close();
  });

  it('is deterministic for a size and seed', () => {
    const a = build(200, 11);
    const b = build(200, 11);
    const ids = (s: MemoryStore) => (connectionOf(s).prepare('SELECT id, data FROM memories ORDER BY rowid').all() as { id: string; data: string }[]);
    expect(ids(a.store)).toEqual(ids(b.store));
    a.store.close();
    b.store.close();
  });
});
