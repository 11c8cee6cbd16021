/**
 * The PostgreSQL adapter (core/store/pg/pg-store.ts) beyond the port's contract suite, against a
 * real server (MNEMO_TEST_PG_URL, or a throwaway cluster from support/pg-cluster.ts).
 *
 * What could go wrong: a store copied from SQLite read back differently through the adapter (an
 * integer column arriving as text, rowid order lost, an embedding's bytes changed, edges out of
 * order); a new store starting with other meta than a new SQLite file; a schema that holds no
 * store opened as if it did; a method not written yet answering something instead of saying so;
 * listeners left believing a write that rolled back.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { EDGE_TYPES } from '../../core/model/enums.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { runAttributed } from '../../core/store/port/attribution.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { MNEMO_SCHEMA_VERSION } from '../../core/store/sqlite/migrations.js';
import { PgAudit } from '../../core/store/pg/pg-audit.js';
import { archivedCount, beliefDimensionCount, countsByColumn, edgeCountsByType, liveAndArchivedCounts, liveCount, liveEdgeTypeCounts, liveIdleBucketCounts, liveRetentionBucketCounts, liveValueCounts, retentionSample, tableCounts } from '../../core/store/queries/counts.js';
import { PgMemoryQueries } from '../../core/store/pg/pg-memory-queries.js';
import { PgRowQueries } from '../../core/store/pg/pg-row-queries.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { PgStoreConnection } from '../../core/store/pg/pg-store-connection.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import type { ChangeEvent, StoreWriter } from '../../core/store/port/port.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { tempDir } from '../../support/fixture.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { credentialUse, insertCredential } from '../../core/store/queries/credentials.js';
import { defaultProfile, deleteSavedProfile, putSavedProfile, savedProfile, savedProfiles, setDefaultProfile } from '../../core/store/queries/saved-profiles.js';
import { memoriesTouched } from '../../core/store/queries/journal-reads.js';
import { duplicateCandidate, liveDuplicateCandidates, memoryHeads, ownerStates, titlesOf } from '../../core/store/queries/memory-views.js';
import { iterUsageRecords, usageRecords } from '../../core/store/queries/usage.js';
import { pgSql } from '../../core/store/pg/pg-sql-seam.js';
import { allMemories, countMemories, memoryEmbedding, memoryRowid, noMemories } from '../../core/store/queries/memory-lookups.js';
import { allEdges, edgeTargets, edgesOfType, liveEntities } from '../../core/store/queries/edge-sources.js';
import { latestAccessEventId, loggedResultIds } from '../../core/store/queries/access-log.js';
import { putTombstone } from '../../core/store/queries/tombstones.js';

const NOW = 1_780_000_000;

const unavailable = pgUnavailable();

/** Most frequent first, equal counts in key order (NULL first), as PostgreSQL's count queries give them. */
function byCountThenKey<T extends { k: string | null; n: number }>(rows: T[]): T[] {
  const key = (k: string | null) => (k === null ? '' : `~${k}`);
  return [...rows].sort((a, b) => b.n - a.n || (key(a.k) < key(b.k) ? -1 : key(a.k) > key(b.k) ? 1 : 0));
}

describe('the PostgreSQL store adapter', () => {
  let server: PgServer | null = null;
  const storeUrl = (schema: string) => `${server!.url}${server!.url.includes('?') ? '&' : '?'}schema=${schema}`;

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const admin = SyncPg.connect(server.url);
    for (const schema of ['pgstore_copied', 'pgstore_rows', 'pgstore_new', 'pgstore_none', 'pgstore_todo', 'pgstore_rollback', 'pgstore_cred', 'pgstore_journal', 'pgstore_undo_copied', 'pgstore_profiles', 'pgstore_list', 'pgstore_runs', 'pgstore_dead_run', 'pgstore_ingest']) admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    admin.close();
  }, 120_000);

  afterAll(() => server?.stop());

  it('reads a store copied from SQLite exactly as the SQLite adapter reads the original', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const path = join(tempDir('mnemo-pgstore-'), 'demo.sqlite');
    const sqlite = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
    generateDemo(sqlite, { size: 80, seed: 11, now: NOW });
    copyStore(path, storeUrl('pgstore_copied'));
    const pg = PgStore.open(storeUrl('pgstore_copied'), { clock: fixedClock(NOW) });
    try {
      const expected = allMemories(sqlite, { includeArchived: true });
      expect(expected.length).toBe(80);
      expect(expected.some((m) => m.edges.length > 0)).toBe(true);
      // Same memories, same fields (numbers as numbers), same edges in the same order, in rowid order.
      expect(allMemories(pg, { includeArchived: true })).toEqual(expected);
      expect(countMemories(pg)).toBe(countMemories(sqlite));
      expect(countMemories(pg, { owner: expected[0]!.owner })).toBe(countMemories(sqlite, { owner: expected[0]!.owner }));
      const withVector = expected.find((m) => memoryEmbedding(sqlite, m.id) !== null)!;
      expect(memoryEmbedding(pg, withVector.id)).toEqual(memoryEmbedding(sqlite, withVector.id));
      // One at a time too: get() and neighbors() read edges in insertion order, not by target.
      const manyEdges = expected.filter((m) => m.edges.length > 1);
      expect(manyEdges.length).toBeGreaterThan(3);
      for (const m of manyEdges) {
        expect(pg.get(m.id)).toEqual(m);
        expect(pg.neighbors(m.id)).toEqual(sqlite.neighbors(m.id));
      }
      for (const m of expected.slice(0, 10)) {
        expect(memoryRowid(pg, m.id)).toBe(memoryRowid(sqlite, m.id));
        expect(pg.incoming(m.id)).toEqual(sqlite.incoming(m.id));
      }
      expect(pg.getMeta('feed_epoch')).toBe(sqlite.getMeta('feed_epoch'));
      expect(defaultProfile(pg)).toBe(defaultProfile(sqlite));
    } finally {
      pg.close();
      sqlite.close();
    }
  });

  it('reads whole tables (raw rows, index sources) as the SQLite adapter does, across pages', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const path = join(tempDir('mnemo-pgstore-'), 'rows.sqlite');
    const sqlite = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
    generateDemo(sqlite, { size: 60, seed: 23, now: NOW });
    // Recalls whose contexts name an owner scope, read by an agent of another role than the memories'.
    const owned = allMemories(sqlite).filter((m) => m.owner !== '' && !m.owner.startsWith('bob')).slice(0, 2);
    expect(owned).toHaveLength(2);
    sqlite.logAccesses(
      owned.map((m, i) => ({ id: m.id, record: accessRecord(NOW + 1 + i, 'recalled', { query: 'scoped query', reader_owner: 'bob@1', rank: i }), context: { owner: i ? 'zed' : 'alice' } })),
    );
    copyStore(path, storeUrl('pgstore_rows'));
    const conn = new PgStoreConnection(parsePgStoreUrl(storeUrl('pgstore_rows')));
    // 7 rows a statement: every whole-table read crosses many pages.
    const pg = new PgRowQueries(conn, 7);
    const q = sqlite.queries;
    // The queries written once run on a PostgreSQL store of the copy.
    const counts = PgStore.openReader(storeUrl('pgstore_rows'), { clock: fixedClock(NOW) });
    try {
      const rows = [...q.memoryRows()];
      expect(rows.some((r) => r.archived === 1) && rows.some((r) => r.embedding !== null)).toBe(true);
      expect([...pg.memoryRows()]).toEqual(rows);
      const pages = [];
      for await (const page of pg.memoryRowPages(9)) pages.push(page.length);
      expect(pages.reduce((a, b) => a + b, 0)).toBe(rows.length);
      expect(pages.length).toBeGreaterThan(1);
      expect([...pg.embeddingRows()]).toEqual([...q.embeddingRows()]);
      const edges = [...q.edgeRows()];
      expect(edges.length).toBeGreaterThan(7);
      expect([...pg.edgeRows()]).toEqual(edges);
      const edgePages = [];
      for await (const page of pg.edgeRowPages(5)) edgePages.push(...page);
      expect(edgePages).toEqual(edges);
      expect([...pg.liveVectorRows()]).toEqual([...q.liveVectorRows()]);
      expect([...pg.liveSourceRows()]).toEqual([...q.liveSourceRows()]);
      expect(pg.liveBodies()).toEqual(q.liveBodies());
      // The lighter reads: recall's owner gate, review heads, duplicates, titles, the session log.
      const light = new PgMemoryQueries(conn, 7);
      // The shared queries over the PostgreSQL side of the SQL seam, paged 7 rows a round trip.
      const paged = { sql: pgSql(conn, 7), hasMnemo: () => true };
      // The index sources written once, paged 7 rows a round trip.
      expect(liveEntities(paged)).toEqual(liveEntities(sqlite));
      expect([...allEdges(paged)]).toEqual([...allEdges(sqlite)]);
      for (const type of EDGE_TYPES) expect(edgesOfType(paged, type)).toEqual(edgesOfType(sqlite, type));
      const ids = [...rows.map((r) => r.id), 'missing'];
      expect(ownerStates(paged, ids)).toEqual(ownerStates(sqlite, ids));
      expect(memoryHeads(paged)).toEqual(memoryHeads(sqlite));
      expect([...liveDuplicateCandidates(paged)]).toEqual([...liveDuplicateCandidates(sqlite)]);
      expect(titlesOf(paged, ids)).toEqual(titlesOf(sqlite, ids));
      const channels = ['recalled', 'searched', 'injected', 'reinforced', 'deref'];
      const sessions = [...q.sessionAccessEvents(channels)];
      expect(sessions.length).toBeGreaterThan(7);
      expect([...light.sessionAccessEvents(channels)]).toEqual(sessions);
      expect([...light.sessionAccessEvents(['deref'])]).toEqual([...q.sessionAccessEvents(['deref'])]);
      expect(latestAccessEventId(paged)).toBe(latestAccessEventId(sqlite));
      // The counts: every one, over a store with archived rows, several owners, types and statuses. They
      // are written once (core/store/queries/counts.ts): over the PostgreSQL copy they answer as over the file.
      for (const column of ['type', 'owner', 'status'] as const) {
        expect(liveValueCounts(counts, column)).toEqual(liveValueCounts(sqlite, column));
          for (const scope of [null, rows[0]!.owner, 'nobody']) expect(countsByColumn(counts, column, scope)).toEqual(byCountThenKey(countsByColumn(sqlite, column, scope)));
      }
      expect(liveAndArchivedCounts(counts)).toEqual(liveAndArchivedCounts(sqlite));
      expect(liveEdgeTypeCounts(counts)).toEqual(liveEdgeTypeCounts(sqlite));
      const buckets = [
        { min: null, max: 0.1 },
        { min: 0.1, max: 0.5 },
        { min: 0.5, max: null },
      ];
      const idle = [
        { min: null, max: 3600 },
        { min: 3600, max: 86_400 * 7 },
        { min: 86_400 * 7, max: null },
      ];
      for (const at of [NOW, NOW + 86_400 * 30]) {
        expect(liveRetentionBucketCounts(counts, at, 72, buckets)).toEqual(liveRetentionBucketCounts(sqlite, at, 72, buckets));
        expect(liveIdleBucketCounts(counts, at, idle)).toEqual(liveIdleBucketCounts(sqlite, at, idle));
      }
      expect(liveRetentionBucketCounts(counts, NOW, 72, buckets).reduce((a, b) => a + b, 0)).toBe(liveCount(sqlite));
      expect(retentionSample(counts, NOW + 3600, 48, 4)).toEqual(retentionSample(sqlite, NOW + 3600, 48, 4));
      expect(liveCount(counts)).toBe(liveCount(sqlite));
      expect(tableCounts(counts)).toEqual(tableCounts(sqlite));
      expect(counts.schemaVersions()).toEqual(sqlite.schemaVersions());
      for (const scope of [null, rows[0]!.owner]) expect(archivedCount(counts, scope)).toBe(archivedCount(sqlite, scope));
      expect(edgeCountsByType(counts)).toEqual(byCountThenKey(edgeCountsByType(sqlite)));
      expect(beliefDimensionCount(counts)).toBe(beliefDimensionCount(sqlite));
      // Usage records, the audit log and the logged recalls.
      expect([...iterUsageRecords(paged, { includeArchived: true })]).toEqual([...iterUsageRecords(sqlite, { includeArchived: true })]);
      expect([...iterUsageRecords(paged, { owner: rows[0]!.owner })]).toEqual([...iterUsageRecords(sqlite, { owner: rows[0]!.owner })]);
      expect(usageRecords(paged, ids)).toEqual(usageRecords(sqlite, ids));
      const audit = new PgAudit(conn);
      const filters = [
        {},
        { channels: ['recalled'], order: 'asc' as const, limit: 20, offset: 3 },
        { crossOwnerOnly: true },
        { query: 'A' },
        { memoryId: rows[1]!.id },
        { credentialId: null, since: NOW - 86_400 * 3 },
        { eventIds: [1, 2, 3, 40] },
      ];
      const sqliteAudit = filters.map((f) => q.auditEvents(f));
      expect(sqliteAudit[0]!.total).toBeGreaterThan(20);
      expect(sqliteAudit[3]!.total).toBeGreaterThan(0);
      expect(filters.map((f) => audit.auditEvents(f))).toEqual(sqliteAudit);
      const recalls = q.loggedRecalls(500);
      expect(recalls.length).toBeGreaterThan(0);
      expect(recalls.some((r) => r.scope !== null)).toBe(true);
      expect(sqliteAudit[2]!.total).toBeGreaterThan(0);
      const byQuery = (list: { query: string; reader_owner: string }[]) => [...list].sort((a, b) => (a.query + a.reader_owner < b.query + b.reader_owner ? -1 : 1));
      expect(byQuery(audit.loggedRecalls(500))).toEqual(byQuery(recalls));
      const sortedIds = (m: Map<string, string[]>) => [...m].map(([k, v]): [string, string[]] => [k, [...v].sort()]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const queries = recalls.map((r) => r.query);
      expect(sortedIds(loggedResultIds(paged, queries, 3))).toEqual(sortedIds(loggedResultIds(sqlite, queries, 3)));
      for (const r of rows.slice(0, 15)) {
        expect(duplicateCandidate(paged, r.id)).toEqual(duplicateCandidate(sqlite, r.id));
        expect(pg.vectorRow(r.id)).toEqual(q.vectorRow(r.id));
        expect(pg.sourceRow(r.id)).toEqual(q.sourceRow(r.id));
        for (const type of EDGE_TYPES) expect(edgeTargets(counts, r.id, type)).toEqual(edgeTargets(sqlite, r.id, type));
      }
    } finally {
      counts.close();
      conn.close();
      sqlite.close();
    }
  });

  it('lists, filters and facets memories and draws the graph as the SQLite adapter does', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const path = join(tempDir('mnemo-pgstore-'), 'list.sqlite');
    const sqlite = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
    generateDemo(sqlite, { size: 90, seed: 31, now: NOW });
    copyStore(path, storeUrl('pgstore_list'));
    const pg = PgStore.open(storeUrl('pgstore_list'), { clock: fixedClock(NOW) });
    const all = allMemories(sqlite, { includeArchived: true });
    const owner = all.find((m) => m.owner.includes('@'))!.owner;
    const tag = all.find((m) => m.tags.length > 0)!.tags[0]!;
    const titled = all.find((m) => m.title !== null)!;
    const linked = all.find((m) => m.edges.length > 1)!;
    try {
      const filters = [
        {},
        { archived: 'all' as const, sort: 'importance', dir: 'desc' as const, limit: 15, offset: 4 },
        { archived: 'archived' as const },
        { owner: owner.split('@')[0]!, sort: 'owner' },
        { owner, sort: 'type', dir: 'desc' as const },
        { owners: [owner, ''], statuses: ['open', 'done'] },
        { types: ['todo', 'info'], sort: 'strength' },
        { tags: [tag], sort: 'created_at' },
        { text: titled.title!.split(' ')[0]!.toUpperCase() },
        { text: `${linked.id.slice(0, 8)}` },
        { text: '50%_\\ x' },
        { ids: [linked.id, titled.id, 'missing'], archived: 'all' as const },
        { edge_types: ['part_of', 'supports'], sort: 'access_count' },
        { importance: { min: 3, max: 7 }, now: NOW, idle: { min: 0 }, retention: { max: 0.9 }, half_life_hours: 48, sort: 'last_accessed' },
        { sort: 'salience', dir: 'desc' as const, limit: 5 },
      ];
      for (const f of filters) {
        const expected = sqlite.queries.listMemories(f);
        expect(pg.queries.listMemories(f), JSON.stringify(f)).toEqual(expected);
        expect(pg.queries.listIds(f, 7), JSON.stringify(f)).toEqual(sqlite.queries.listIds(f, 7));
      }
      expect(sqlite.queries.listMemories({ tags: [tag] }).total).toBeGreaterThan(1);
      expect(sqlite.queries.listMemories({ text: titled.title!.split(' ')[0]!.toUpperCase() }).total).toBeGreaterThan(0);
      for (const archived of ['live', 'archived', 'all'] as const) {
        expect(pg.queries.memoryFacets(archived, 5)).toEqual(sqlite.queries.memoryFacets(archived, 5));
        expect(pg.queries.memoryFacets(archived, 50, 20)).toEqual(sqlite.queries.memoryFacets(archived, 50, 20));
      }
      // The graph: edges compared as sets (their order is not part of the view).
      const graphOf = (r: ReturnType<typeof sqlite.queries.graphView>) => ({ ...r, edges: [...r.edges].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) });
      const graphs = [
        { focus: linked.id },
        { focus: linked.id, hops: 3, includeArchived: true, limit: 6 },
        { focus: linked.id, edgeTypes: ['part_of', 'derived_from'], owner: owner.split('@')[0]! },
        { focus: 'missing' },
        {},
        { limit: 10, types: ['todo', 'info'], owner },
        { includeArchived: true, edgeTypes: ['supports'] },
      ];
      for (const f of graphs) expect(graphOf(pg.queries.graphView(f)), JSON.stringify(f)).toEqual(graphOf(sqlite.queries.graphView(f)));
      expect(sqlite.queries.graphView({ focus: linked.id }).edges.length).toBeGreaterThan(1);
      // A row whose JSON no parser reads (written by another writer) fails no filter: it has no title and no tags.
      const admin = SyncPg.connect(server!.url);
      admin.query(`UPDATE pgstore_list.memories SET data = '{"title": broken' WHERE id = $1`, [titled.id]);
      admin.close();
      expect(pg.queries.listMemories({ tags: [tag], text: 'e' }).total).toBeGreaterThan(0);
      expect(pg.queries.listMemories({ ids: [titled.id], archived: 'all' }).rows[0]).toMatchObject({ id: titled.id, title: null, tags: null });
      expect(pg.queries.memoryFacets('all', 50).tags.length).toBeGreaterThan(0);
    } finally {
      pg.close();
      sqlite.close();
    }
  });

  it('makes a new store with the meta a new SQLite store starts with, and refuses to open a schema that holds none', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const pg = PgStore.open(storeUrl('pgstore_new'), { create: true, clock: fixedClock(NOW) });
    const sqlite = MemoryStore.open(join(tempDir('mnemo-pgstore-'), 'new.sqlite'), { create: true, clock: fixedClock(NOW) });
    try {
      expect(pg.hasMnemo()).toBe(true);
      for (const key of ['profile', 'created_at', 'schema_version', 'feed_installed_at']) expect(pg.getMeta(key)).toBe(sqlite.getMeta(key));
      expect(pg.getMeta('schema_version')).toBe(String(MNEMO_SCHEMA_VERSION));
      expect(pg.getMeta('feed_epoch')).toMatch(/^[0-9a-f]{16}$/);
      expect(defaultProfile(pg)).toBe('mnemo');
      expect(noMemories(pg)).toBe(true);
    } finally {
      pg.close();
      sqlite.close();
    }
    // The store persists: opening again (without create) finds it.
    const again = PgStore.open(storeUrl('pgstore_new'));
    expect(defaultProfile(again)).toBe('mnemo');
    again.close();
    const none = errorOf(() => PgStore.open(storeUrl('pgstore_none')));
    expect(none?.code).toBe('schema');
    expect(none?.message).toContain('holds no store');
    // A read-only open never creates one.
    expect(errorOf(() => PgStore.open(storeUrl('pgstore_none'), { create: true, readonly: true }))?.code).toBe('schema');
  });

  it('resolves an instant on a new store (time travel: test/store/pg-time-travel.test.ts), and refuses a position of another feed', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store: StoreWriter = PgStore.open(storeUrl('pgstore_todo'), { create: true, clock: fixedClock(NOW) });
    try {
      expect(store.asOf(NOW + 1)).toMatchObject({ at: NOW + 1, earliest: NOW, live: true, rolled_back: 0 });
      expect(errorOf(() => store.asOf(NOW - 1))?.details).toMatchObject({ reason: 'before_history', earliest: NOW });
      expect(errorOf(() => store.changesBetween({ epoch: 'e', seq: 1 }, { epoch: 'e', seq: 2 }))?.details).toMatchObject({ reason: 'other_feed' });
    } finally {
      store.close();
    }
  });

  it('retells listeners each memory a rolled-back transaction wrote, and the rows are as before', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store = PgStore.open(storeUrl('pgstore_rollback'), { create: true, clock: fixedClock(NOW) });
    try {
      const a = createMemory({ content: 'kept' }, NOW);
      store.add(a, null);
      const heard: ChangeEvent[] = [];
      store.onChange((e) => heard.push(e));
      const b = createMemory({ content: 'rolled back' }, NOW);
      expect(() =>
        store.transaction(() => {
          store.save({ ...a, content: 'changed' });
          store.add(b, null);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      // Heard as written, then again after the rollback, so a listener re-reads the committed rows.
      expect(heard).toEqual([
        { kind: 'upsert', id: a.id },
        { kind: 'upsert', id: b.id },
        { kind: 'upsert', id: a.id },
        { kind: 'upsert', id: b.id },
      ]);
      expect(store.get(a.id)!.content).toBe('kept');
      expect(store.get(b.id)).toBeNull();
      // The connection is usable after the rollback.
      store.setMeta('after', 'yes');
      expect(store.getMeta('after')).toBe('yes');
    } finally {
      store.close();
    }
  });

  it('attributes accesses to the credential they were made with, and counts its use, as SQLite does', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const pg = PgStore.open(storeUrl('pgstore_cred'), { create: true, clock: fixedClock(NOW) });
    const sqlite = MemoryStore.open(join(tempDir('mnemo-pgstore-'), 'cred.sqlite'), { create: true, clock: fixedClock(NOW) });
    try {
      for (const store of [pg, sqlite] as StoreWriter[]) {
        const m = createMemory({ id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', content: 'used by an agent' }, NOW);
        store.add(m, null);
        insertCredential(store, { id: 'cred00000001', owner: 'coder@1', scopes: ['read-only'], label: 'ci', created_at: NOW, revoked_at: null, token_hash: 'h'.repeat(64) });
        runAttributed('cred00000001', () => store.logAccesses([{ id: m.id, record: accessRecord(NOW + 7, 'recalled', { query: 'q' }) }]));
        store.logAccesses([{ id: m.id, record: accessRecord(NOW + 9, 'recalled', { query: 'q' }) }]);
      }
      expect(credentialUse(pg)).toEqual([{ credential_id: 'cred00000001', accesses: 1, changes: 0, last_used: NOW + 7 }]);
      expect(credentialUse(pg)).toEqual(credentialUse(sqlite));
      const events = (s: StoreWriter) => s.accessEvents({ order: 'asc' }).events.map(({ event_id: _id, ...e }) => e);
      expect(events(pg).map((e) => e.credential_id)).toEqual(['cred00000001', null]);
      expect(events(pg)).toEqual(events(sqlite));
      expect(pg.get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toEqual(sqlite.get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'));
    } finally {
      pg.close();
      sqlite.close();
    }
  });

  it('undoes a deleted memory back into its old place, keeping accesses logged since a change, and refuses an undo a later change blocks', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store = PgStore.open(storeUrl('pgstore_journal'), { create: true, clock: fixedClock(NOW) });
    try {
      const [a, b, c] = ['first', 'second', 'third'].map((content) => {
        const m = createMemory({ content }, NOW);
        store.add(m, Float32Array.from({ length: store.dim }, (_, i) => i / 7));
        return m;
      });
      store.addEdge(a!.id, b!.id, 'supports');
      store.addEdge(c!.id, b!.id, 'related');
      const order = allMemories(store).map((m) => m.id);
      const rowid = memoryRowid(store, b!.id);
      const gone = store.change('delete b', 'test', () => store.delete(b!.id)).changeId!;
      expect(store.get(b!.id)).toBeNull();
      expect(store.neighbors(a!.id)).toEqual([]);
      store.journal.undo(gone);
      // Back where it was in insertion order, with its embedding, and the edges into it too.
      expect(memoryRowid(store, b!.id)).toBe(rowid);
      expect(allMemories(store).map((m) => m.id)).toEqual(order);
      expect(memoryEmbedding(store, b!.id)).toEqual(Float32Array.from({ length: store.dim }, (_, i) => i / 7));
      expect(store.incoming(b!.id).map((e) => e.src).sort()).toEqual([a!.id, c!.id].sort());

      const edit = store.change('edit a', 'test', () => store.save({ ...store.get(a!.id)!, content: 'first, edited' })).changeId!;
      store.logAccesses([{ id: a!.id, record: accessRecord(NOW + 5, 'recalled', { query: 'q' }) }]);
      store.journal.undo(edit);
      const back = store.get(a!.id)!;
      expect(back.content).toBe('first');
      expect(back.access_count).toBe(a!.access_count + 1); // the recall after the change is kept
      store.journal.redo(edit);
      const later = store.change('edit a again', 'test', () => store.save({ ...store.get(a!.id)!, content: 'first, edited twice' })).changeId!;
      const refused = errorOf(() => store.journal.undo(edit));
      expect(refused?.code).toBe('conflict');
      expect(refused?.details).toMatchObject({ blocked_by: [later] });
      expect(store.journal.dependents(edit).map((ch) => ch.id)).toEqual([later]);
    } finally {
      store.close();
    }
  });

  it('writes a change in batches under a marker, and undoes a group of changes in paced batches', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store = PgStore.open(storeUrl('pgstore_runs'), { create: true, clock: fixedClock(NOW) });
    const fast = { batchMs: 1000, maxBatchItems: 1, pauseMs: 0 };
    try {
      const base = createMemory({ content: 'base' }, NOW);
      const first = store.change('add base', 'test', () => store.add(base, null)).changeId!;
      const run = store.runs.changeRun('batched', 'test');
      run.batch(() => store.save({ ...store.get(base.id)!, content: 'batch one' }));
      // While the run is written, its marker names it, and a second long change is refused.
      expect(JSON.parse(store.getMeta('journal_run')!)).toMatchObject({ change_id: run.changeId, mode: 'record' });
      expect(errorOf(() => store.runs.changeRun('second', 'test').batch(() => null))?.code).toBe('busy');
      run.batch(() => store.add(createMemory({ content: 'batch two' }, NOW), null));
      run.batch(() => store.save({ ...store.get(base.id)!, content: 'batch three' }));
      const batched = run.finish(() => ({ note: 'done' }))!;
      expect(store.getMeta('journal_run')).toBeNull();
      // One change: the base row once (before-image of its first batch, after-image of its last), the new one created.
      expect(store.journal.get(batched)).toMatchObject({ counts: { memories_modified: 1, memories_created: 1 }, meta: { note: 'done' }, rows: 2 });
      // Undone with the change it builds on, in paced batches (the group is past the one-transaction size).
      const done: number[] = [];
      const r = await store.runs.undoWithDependents(first, { pacing: fast, oneTransactionRows: 0, onProgress: (n) => done.push(n) });
      expect(r.undone.map((c) => [c.id, c.state])).toEqual([
        [batched, 'undone'],
        [first, 'undone'],
      ]);
      expect(done.at(-1)).toBe(3);
      expect(countMemories(store)).toBe(0);
      expect(store.getMeta('journal_run')).toBeNull();
      // Redone one change at a time, the change itself first.
      await store.runs.replayInBatches({ redo: undefined }, fast);
      expect(store.get(base.id)!.content).toBe('base');
      await store.runs.replayInBatches({ redo: undefined }, fast);
      expect(store.get(base.id)!.content).toBe('batch three');
      expect(countMemories(store)).toBe(2);
    } finally {
      store.close();
    }
  });

  it('rolls back, when it next opens, a change in batches whose writer died', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store = PgStore.open(storeUrl('pgstore_dead_run'), { create: true, clock: fixedClock(NOW) });
    const kept = createMemory({ content: 'kept' }, NOW);
    store.add(kept, null);
    const run = store.runs.changeRun('cut short', 'test');
    run.batch(() => store.save({ ...store.get(kept.id)!, content: 'half written' }));
    run.batch(() => store.add(createMemory({ content: 'half added' }, NOW), null));
    const changeId = run.changeId!;
    // The writer "dies": its marker names a process that does not exist on this host.
    const marker = JSON.parse(store.getMeta('journal_run')!) as Record<string, unknown>;
    store.setMeta('journal_run', JSON.stringify({ ...marker, pid: 2 ** 22 + 7 }));
    store.close();
    const warnings: string[] = [];
    const reopened = PgStore.open(storeUrl('pgstore_dead_run'), { clock: fixedClock(NOW), onWarning: (m) => warnings.push(m) });
    try {
      expect(warnings).toEqual([expect.stringContaining(`change #${changeId} (cut short) was cut short`)]);
      expect(allMemories(reopened).map((m) => m.content)).toEqual(['kept']);
      expect(reopened.getMeta('journal_run')).toBeNull();
      expect(errorOf(() => reopened.journal.get(changeId))?.code).toBe('not_found');
    } finally {
      reopened.close();
    }
  });

  it('marks a belief ingest by its delta ranges, names the dimensions others wrote between them, and removes it when its writer died', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const store = PgStore.open(storeUrl('pgstore_ingest'), { create: true, clock: fixedClock(NOW) });
    // The belief tables are not written by the adapter yet: deltas go in by SQL, with the ids an ingest would take.
    const admin = SyncPg.connect(server!.url);
    const delta = (id: number, entity: string) =>
      admin.query(
        `INSERT INTO pgstore_ingest.mnemo_deltas(id, entity, attribute, observed_entity, value, t, epsilon, prior, posterior, surprise, recorded_at) VALUES ($1, $2, 'colour', $2, '"red"', $3, 0.1, '{}', '{}', 0, $3)`,
        [id, entity, NOW],
      );
    const deltaIds = () => admin.query<{ id: string }>('SELECT id FROM pgstore_ingest.mnemo_deltas ORDER BY id').map((r) => Number(r.id));
    try {
      const run = store.transaction(() => store.runs.beginIngestRun());
      for (const id of [1, 2]) delta(id, 'ours');
      store.transaction(() => run.noteBatch(1, 2));
      delta(3, 'theirs'); // another writer, between two batches
      for (const id of [4, 5]) delta(id, 'ours');
      store.transaction(() => run.noteBatch(4, 5));
      delta(6, 'late'); // and after the last one
      expect(run.foreignDeltaDimensions()).toEqual([
        { entity: 'theirs', attribute: 'colour' },
        { entity: 'late', attribute: 'colour' },
      ]);
      // The writer "dies": the next open removes exactly the ingest's ranges and its marker.
      const marker = JSON.parse(store.getMeta('beliefs_ingest_run')!) as Record<string, unknown>;
      store.setMeta('beliefs_ingest_run', JSON.stringify({ ...marker, pid: 2 ** 22 + 9 }));
      store.close();
      const warnings: string[] = [];
      const reopened = PgStore.open(storeUrl('pgstore_ingest'), { clock: fixedClock(NOW), onWarning: (w) => warnings.push(w) });
      reopened.close();
      expect(warnings).toEqual([expect.stringContaining('its 4 deltas were removed')]);
      expect(deltaIds()).toEqual([3, 6]);
    } finally {
      store.close();
      admin.close();
    }
  });

  it('undoes, on PostgreSQL, a change journalled on SQLite and copied over, to the same rows SQLite gives back', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const path = join(tempDir('mnemo-pgstore-'), 'journal.sqlite');
    const sqlite = MemoryStore.open(path, { create: true, clock: fixedClock(NOW) });
    const a = createMemory({ content: 'before', owner: 'alice@1' }, NOW);
    const b = createMemory({ content: 'other' }, NOW);
    sqlite.add(a, null);
    sqlite.add(b, null);
    const changeId = sqlite.change('edit and forget', 'test', () => {
      sqlite.save({ ...a, content: 'after' });
      sqlite.delete(b.id);
      putTombstone(sqlite, { hash: 'f'.repeat(64), memory_id: b.id, owner: '', ts: NOW, head: 'other' });
    }).changeId!;
    copyStore(path, storeUrl('pgstore_undo_copied'));
    const pg = PgStore.open(storeUrl('pgstore_undo_copied'), { clock: fixedClock(NOW) });
    try {
      expect(pg.journal.get(changeId)).toEqual(sqlite.journal.get(changeId));
      expect(pg.journal.rows(changeId)).toEqual(sqlite.journal.rows(changeId));
      expect(memoriesTouched(pg, changeId, 5)).toEqual(memoriesTouched(sqlite, changeId, 5));
      pg.journal.undo(changeId);
      sqlite.journal.undo(changeId);
      expect(allMemories(pg)).toEqual(allMemories(sqlite));
      expect(allMemories(pg).map((m) => [m.content, memoryRowid(pg, m.id)])).toEqual(allMemories(sqlite).map((m) => [m.content, memoryRowid(sqlite, m.id)]));
      expect(pg.journal.get(changeId)).toMatchObject({ state: 'undone' });
      expect(pg.journal.history()).toEqual(sqlite.journal.history());
    } finally {
      pg.close();
      sqlite.close();
    }
  });

  it('saves profiles and sets the default inside changes, undone and redone as on SQLite', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const pg = PgStore.open(storeUrl('pgstore_profiles'), { create: true, clock: fixedClock(NOW) });
    const sqlite = MemoryStore.open(join(tempDir('mnemo-pgstore-'), 'profiles.sqlite'), { create: true, clock: fixedClock(NOW) });
    try {
      const steps = (store: StoreWriter) => {
        const row = (name: string) => ({ name, base: 'mnemo', config: '{"knobs":{},"features":{}}', created_at: NOW, updated_at: NOW, default_since: null });
        const saved = store.change('save', 'profile.save', () => {
          putSavedProfile(store, row('fast'));
          putSavedProfile(store, row('slow'));
        }).changeId!;
        const defaulted = store.change('default', 'profile.default', () => setDefaultProfile(store, 'fast')).changeId!;
        const state = () => ({ profile: defaultProfile(store), rows: savedProfiles(store), one: savedProfile(store, 'fast') });
        const afterSet = state();
        store.journal.undo(defaulted);
        const afterUndo = state();
        store.change('delete slow', 'profile.delete', () => deleteSavedProfile(store, 'slow'));
        const afterDelete = state();
        return { afterSet, afterUndo, afterDelete, rows: store.journal.rows(saved), refused: errorOf(() => store.journal.undo(saved))?.code };
      };
      const there = steps(pg);
      expect(there.afterSet.profile).toBe('fast');
      expect(there.afterSet.one?.default_since).toBe(NOW);
      expect(there.afterUndo.profile).toBe('mnemo');
      expect(there.afterUndo.one?.default_since).toBeNull();
      expect(there.afterDelete.rows.map((r) => r.name)).toEqual(['fast']);
      expect(there.refused).toBe('conflict'); // a later change touched the saved rows
      expect(there).toEqual(steps(sqlite));
    } finally {
      pg.close();
      sqlite.close();
    }
  });
});
