/**
 * The store port's contract, its whole-table queries (store.queries): part of the suite in
 * store-port-contract.test.ts, which calls this inside each adapter's describe, so it runs on both
 * adapters with the suite's fresh store per test and counts in its check of the skip list. A file
 * of its own because the suite had outgrown one.
 */
import { expect } from 'vitest';
import { accessRecord } from '../../core/model/memory.js';
import type { Memory, NewMemoryInput } from '../../core/model/memory.js';
import type { OwnerSummary, StoreWriter } from '../../core/store/port/port.js';
import type { StoreUnderTest } from '../../support/store-adapters.js';
import { archivedCount, beliefDimensionCount, countsByColumn, edgeCountsByType, liveAndArchivedCounts, liveCount, liveEdgeTypeCounts, liveIdleBucketCounts, liveRetentionBucketCounts, liveValueCounts, retentionSample, tableCounts } from '../../core/store/queries/counts.js';
import { ownerSummaries } from '../../core/store/queries/owner-summaries.js';
import { memoriesTouched } from '../../core/store/queries/journal-reads.js';
import { duplicateCandidate, liveDuplicateCandidates, memoryHeads, ownerStates, titlesOf } from '../../core/store/queries/memory-views.js';
import { iterUsageRecords, usageRecords } from '../../core/store/queries/usage.js';
import { allEdges, edgeTargets, edgesOfType, liveEntities } from '../../core/store/queries/edge-sources.js';
import { latestAccessEventId, loggedResultIds } from '../../core/store/queries/access-log.js';

/** What the suite's describe gives its parts: the store of the running test, and its helpers. */
export interface ContractHarness {
  readonly store: StoreWriter;
  readonly fx: StoreUnderTest;
  contractIt(title: string, fn: () => unknown): void;
  added(input: NewMemoryInput, embedding?: Float32Array | null): Memory;
  vector(seed: number): Float32Array;
  NOW: number;
}

export function wholeTableQueriesContract(h: ContractHarness): void {
  const { contractIt, added, vector, NOW } = h;
  /** Three memories: alice's info and skill, bob's archived info; a (part_of) b; a has a vector. */
  function seeded() {
    const a = added({ content: 'alpha body', title: 'Alpha', owner: 'alice', type: 'info', tags: ['red', 'blue'], importance: 8 }, vector(1));
    const b = added({ content: 'beta body', owner: 'alice', type: 'skill', tags: ['red'], importance: 3 });
    const c = added({ content: 'gamma body', owner: 'bob', type: 'info' });
    h.store.addEdge(a.id, b.id, 'part_of');
    h.store.setArchived(c.id, true);
    return { a, b, c, reader: h.fx.openReader() };
  }

  contractIt('memories: list, ids, facets, owner states, heads and duplicate candidates', () => {
    const { a, b, c, reader } = seeded();
    for (const s of [h.store, reader]) {
      const q = s.queries;
      const page = q.listMemories({ archived: 'live', sort: 'importance', dir: 'desc', limit: 1 });
      expect(page.total).toBe(2);
      expect(page.rows.map((r) => [r.id, r.title, r.owner])).toEqual([[a.id, 'Alpha', 'alice']]);
      expect(q.listMemories({ archived: 'all', owner: 'bob' }).rows.map((r) => r.id)).toEqual([c.id]);
      expect(q.listIds({ archived: 'all', sort: 'rowid', dir: 'asc' }, 2)).toEqual({ total: 3, ids: [a.id, b.id] });
      const facets = q.memoryFacets('live', 10);
      expect(facets).toMatchObject({ live: 2, archived: 1, tags_sampled: null });
      expect(facets.tags).toEqual([
        { value: 'red', n: 2 },
        { value: 'blue', n: 1 },
      ]);
      expect(facets.owners).toEqual([{ value: 'alice', n: 2 }]);
      expect(ownerStates(s, [a.id, c.id, 'missing'])).toEqual(
        new Map([
          [a.id, { owner: 'alice', archived: false }],
          [c.id, { owner: 'bob', archived: true }],
        ]),
      );
      expect(memoryHeads(s).get(a.id)).toEqual({ type: 'info', owner: 'alice', title: 'Alpha', content: 'alpha body' });
      expect([...liveDuplicateCandidates(s)].map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(duplicateCandidate(s, c.id)).toMatchObject({ id: c.id, archived: 1, content: 'gamma body' });
      expect(titlesOf(s, [a.id, b.id])).toEqual(new Map([[a.id, 'Alpha'], [b.id, null]]));
    }
  });

  contractIt('memories and edges: raw rows in one statement and in pages agree', async () => {
    const { a, b, c, reader } = seeded();
    for (const s of [h.store, reader]) {
      const q = s.queries;
      const rows = [...q.memoryRows()];
      expect(rows.map((r) => [r.id, r.archived])).toEqual([
        [a.id, 0],
        [b.id, 0],
        [c.id, 1],
      ]);
      const paged = [];
      for await (const page of q.memoryRowPages(2)) paged.push(...page);
      expect(paged).toEqual(rows);
      expect([...q.embeddingRows()].map((r) => [r.id, r.embedding !== null])).toEqual([
        [a.id, true],
        [b.id, false],
        [c.id, false],
      ]);
      const edges = [...q.edgeRows()];
      expect(edges.map((e) => [e.src, e.dst, e.type])).toEqual([[a.id, b.id, 'part_of']]);
      const pagedEdges = [];
      for await (const page of q.edgeRowPages(1)) pagedEdges.push(...page);
      expect(pagedEdges).toEqual(edges);
    }
  });

  contractIt('edges: the graph around a focus, live rows only unless archived ones are asked for', () => {
    const { a, b, c, reader } = seeded();
    h.store.addEdge(b.id, c.id, 'supports');
    for (const s of [h.store, reader]) {
      const q = s.queries;
      const around = q.graphView({ focus: a.id, hops: 2 });
      expect(around.nodes.map((n) => [n.id, n.depth]).sort()).toEqual(
        [
          [a.id, 0],
          [b.id, 1],
        ].sort(),
      );
      expect(around.edges).toEqual([{ src: a.id, dst: b.id, type: 'part_of', weight: 1 }]);
      expect(q.graphView({ focus: a.id, hops: 2, includeArchived: true }).nodes.map((n) => n.id).sort()).toEqual([a.id, b.id, c.id].sort());
    }
  });

  contractIt('index sources: live rows for the derived indexes, single rows by id archived or not', () => {
    const { a, b, c, reader } = seeded();
    for (const s of [h.store, reader]) {
      const q = s.queries;
      expect([...q.liveSourceRows()].map((r) => r.id)).toEqual([a.id, b.id]);
      expect(q.sourceRow(c.id)).toMatchObject({ id: c.id, archived: 1, owner: 'bob', content: 'gamma body' });
      expect(q.sourceRow('missing')).toBeUndefined();
      expect([...q.liveVectorRows()].map((r) => [r.id, r.embedding !== null])).toEqual([
        [a.id, true],
        [b.id, false],
      ]);
      expect(q.vectorRow(c.id)).toMatchObject({ id: c.id, archived: 1 });
      expect(q.liveBodies().map((r) => [r.id, r.title, r.readable])).toEqual([
        [a.id, 'Alpha', 1],
        [b.id, null, 1],
      ]);
      expect(liveEntities(s).map((r) => r.id)).toEqual([a.id, b.id]);
      expect([...allEdges(s)].map((e) => [e.src, e.dst, e.type])).toEqual([[a.id, b.id, 'part_of']]);
      expect(edgesOfType(s, 'part_of')).toEqual([{ src: a.id, dst: b.id }]);
      expect(edgesOfType(s, 'supports')).toEqual([]);
      expect(edgeTargets(s, a.id, 'part_of')).toEqual([b.id]);
    }
  });

  contractIt('access events: usage records, the audit log with heads, and the logged recalls', () => {
    const { a, b, c, reader } = seeded();
    h.store.logAccesses([
      { id: a.id, record: accessRecord(NOW + 1, 'recalled', { query: 'alpha?', reader_owner: 'alice', rank: 0 }) },
      { id: b.id, record: accessRecord(NOW + 1, 'recalled', { query: 'alpha?', reader_owner: 'alice', rank: 3 }) },
    ]);
    for (const s of [h.store, reader]) {
      const q = s.queries;
      expect([...iterUsageRecords(s)].map((r) => r.id)).toEqual([a.id, b.id]);
      expect([...iterUsageRecords(s, { owner: 'bob', includeArchived: true })].map((r) => r.id)).toEqual([c.id]);
      const usage = usageRecords(s, [a.id, 'missing']);
      expect([...usage.keys()]).toEqual([a.id]);
      expect(usage.get(a.id)!.access_log.at(-1)).toMatchObject({ ts: NOW + 1, channel: 'recalled', query: 'alpha?' });
      const audit = q.auditEvents({ channels: ['recalled'], order: 'asc' })!;
      expect(audit.total).toBe(2);
      expect(audit.events.map((e) => [e.memory_id, e.title, e.memory_owner])).toEqual([
        [a.id, 'Alpha', 'alice'],
        [b.id, null, 'alice'],
      ]);
      expect(q.loggedRecalls(10)).toMatchObject([{ query: 'alpha?', reader_owner: 'alice', accesses: 2, first_ts: NOW + 1, last_ts: NOW + 1 }]);
      expect(loggedResultIds(s, ['alpha?', 'other'], 1)).toEqual(new Map([['alpha?', [a.id]]]));
      expect([...q.sessionAccessEvents(['recalled'])]).toEqual([]); // none carries a session yet
    }
    h.store.logAccesses([
      { id: b.id, record: accessRecord(NOW + 2, 'deref', { reader_owner: 'alice', session_ref: 's1' }) },
      { id: a.id, record: accessRecord(NOW + 3, 'recalled', { query: 'beta?', reader_owner: 'alice', rank: 0, session_ref: 's1' }) },
    ]);
    for (const s of [h.store, reader]) {
      const q = s.queries;
      // Only events that carry a session, of the channels asked for, oldest first.
      expect([...q.sessionAccessEvents(['recalled', 'deref'])].map((e) => [e.memory_id, e.channel, e.session_ref])).toEqual([
        [b.id, 'deref', 's1'],
        [a.id, 'recalled', 's1'],
      ]);
      expect([...q.sessionAccessEvents(['reinforced'])]).toEqual([]);
      expect(latestAccessEventId(s)).toBe(4); // the fourth event logged
    }
  });

  contractIt('journal: the memories a change wrote', () => {
    const { a, reader } = seeded();
    const { changeId } = h.store.change('edit', 'test', () => h.store.save({ ...a, content: 'edited' }));
    for (const s of [h.store, reader]) expect(memoriesTouched(s, changeId!, 3)).toEqual([a.id]);
  });

  contractIt('counts: the Overview, stats and store panel numbers', () => {
    const { a, reader } = seeded();
    h.store.logAccesses([{ id: a.id, record: accessRecord(NOW + 1, 'recalled') }]);
    for (const s of [h.store, reader]) {
      expect(liveAndArchivedCounts(s)).toEqual({ live: 2, archived: 1 });
      expect(liveCount(s)).toBe(2);
      expect(liveValueCounts(s, 'type')).toEqual([
        { value: 'info', n: 1 },
        { value: 'skill', n: 1 },
      ]);
      expect(liveEdgeTypeCounts(s)).toEqual([{ value: 'part_of', n: 2 }]); // live memories touching the type, not edges
      const buckets = [
        { min: null, max: null },
        { min: 1e12, max: null },
      ];
      expect(liveRetentionBucketCounts(s, NOW, 24, buckets)).toEqual([2, 0]);
      expect(liveIdleBucketCounts(s, NOW, buckets)).toEqual([2, 0]);
      expect(retentionSample(s, NOW, 24, 1)).toHaveLength(2);
      expect(tableCounts(s)).toMatchObject({ memories: 3, archived: 1, edges: 1, events: 1 });
      expect(s.schemaVersions().mnemo).toBeGreaterThan(0);
      expect(countsByColumn(s, 'owner', null)).toEqual([
        { k: 'alice', n: 2 },
        { k: 'bob', n: 1 },
      ]);
      expect(archivedCount(s, 'bob')).toBe(1);
      expect(edgeCountsByType(s)).toEqual([{ k: 'part_of', n: 1 }]);
      expect(beliefDimensionCount(s)).toBe(0);
    }
  });

  contractIt('owners: one row per owner (memories, types, edges, accesses, reads of other roles, newest write and access), capped in byte order', () => {
    const w0a = added({ content: 'w0 first', owner: 'w0@fleet', type: 'info', created_at: NOW - 50 });
    const w0b = added({ content: 'w0 second', owner: 'w0@fleet', type: 'skill', created_at: NOW - 10 });
    const w0c = added({ content: 'w0 archived', owner: 'w0@fleet', type: 'info', created_at: NOW - 5 });
    const w1a = added({ content: 'w1 only', owner: 'w1@fleet', type: 'info', created_at: NOW - 20 });
    const shared = added({ content: 'unowned', owner: '', type: 'info', created_at: NOW - 30 });
    // Past U+FFFF: JS compares UTF-16 units and would put the robot first; the stores compare bytes.
    added({ content: 'fullwidth', owner: 'ｗ9', type: 'episode', created_at: NOW });
    added({ content: 'robot', owner: '🤖', type: 'skill', created_at: NOW });
    h.store.setArchived(w0c.id, true);
    h.store.addEdge(w0a.id, w0b.id, 'related');
    h.store.addEdge(w0a.id, w1a.id, 'supports');
    h.store.addEdge(w1a.id, w0a.id, 'related');
    h.store.addEdge(w0c.id, shared.id, 'related');
    const read = (id: string, ts: number, reader: string) => ({ id, record: accessRecord(ts, 'recalled', reader ? { reader_owner: reader } : {}) });
    h.store.logAccesses([
      read(w0a.id, NOW + 1, 'w1@fleet'), // another role: w1 read a foreign memory
      read(w0b.id, NOW + 2, 'w0@laptop'), // the same role: not foreign, and w0@laptop owns nothing, so it gets no row
      read(w1a.id, NOW + 3, 'w0@fleet'), // foreign for w0
      read(shared.id, NOW + 4, 'w1@fleet'), // an unowned memory is nobody's: not foreign
      read(w1a.id, NOW + 5, ''), // no reader named
      read(w0a.id, NOW + 6, 'auditor'), // a reader that owns no memory still gets a row for its foreign reads
      read(w0c.id, NOW + 7, 'w1@fleet'), // an archived memory's accesses count too
    ]);
    const row = (owner: string, r: Partial<OwnerSummary>): OwnerSummary => ({
      owner,
      live: 0,
      archived: 0,
      by_type: {},
      edges_out: 0,
      accesses: 0,
      foreign_reads: 0,
      last_created: null,
      last_access: null,
      ...r,
    });
    const all = [
      row('', { live: 1, by_type: { info: 1 }, accesses: 1, last_created: NOW - 30, last_access: NOW + 4 }),
      row('auditor', { foreign_reads: 1 }),
      row('w0@fleet', { live: 2, archived: 1, by_type: { info: 1, skill: 1 }, edges_out: 3, accesses: 4, foreign_reads: 1, last_created: NOW - 5, last_access: NOW + 7 }),
      row('w1@fleet', { live: 1, by_type: { info: 1 }, edges_out: 1, accesses: 2, foreign_reads: 2, last_created: NOW - 20, last_access: NOW + 5 }),
      row('ｗ9', { live: 1, by_type: { episode: 1 }, last_created: NOW }),
      row('🤖', { live: 1, by_type: { skill: 1 }, last_created: NOW }),
    ];
    const reader = h.fx.openReader();
    for (const s of [h.store, reader]) {
      const q = s.queries;
      expect(ownerSummaries(s, 1000)).toEqual({ owners: all, truncated: false });
      // The foreign reads are the Access audit's cross-owner accesses, counted per reader.
      expect(q.auditEvents({ crossOwnerOnly: true })!.total).toBe(4);
      // Five memory owners: a cap of 3 leaves out the fourth and later; the rows kept are whole.
      expect(ownerSummaries(s, 3)).toEqual({ owners: all.slice(0, 3), truncated: true });
      // Five memory owners fit in 5, but with the reader that owns none there are six rows.
      expect(ownerSummaries(s, 5)).toEqual({ owners: all.slice(0, 5), truncated: true });
      expect(ownerSummaries(s, 6).truncated).toBe(false);
    }
  });
}
