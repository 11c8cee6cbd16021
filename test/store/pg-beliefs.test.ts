/**
 * The belief layer on PostgreSQL against the same layer on SQLite: one set of observations is
 * ingested into a store of each kind through core/beliefs, and everything read back must be equal
 * (dimensions, deltas with their numbers and nulls, orders, name searches, the evidence search's
 * ids and BM25 scores, a retrieval), after an alias merge, after its undo and redo, and after an
 * ingest that is rolled back.
 *
 * What could go wrong: a count arriving as text, ILIKE folding other letters than SQLite's LIKE, a
 * different tie order, the evidence copy missing deltas another statement added or keeping ones a
 * rollback removed, an alias row the journal cannot restore, a replay after undo that differs.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAliasMerges, BeliefModel, beliefJournalFollowUps, rejectAliasPair, retrieve } from '../../core/beliefs/index.js';
import { ftsQuery } from '../../core/beliefs/retrieval.js';
import { fixedClock } from '../../core/clock.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import type { StoreReader, StoreWriter } from '../../core/store/port/port.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { tempDir } from '../../support/fixture.js';
import { DAY, NOW, obs } from '../helpers/beliefs.js';

const unavailable = pgUnavailable();

const FIRST = [
  obs('Ada', 'city', 'Lyon', NOW, 0.8, { evidence: 'Ada moved to Lyon for the café.' }),
  obs('Ada', 'city', 'Paris', NOW + DAY, 0.6, { evidence: 'Ada is in Paris now, near the cafe' }),
  obs('Ada Lovelace', 'city', 'Paris', NOW + 2 * DAY, null, { evidence: 'Lovelace lives in Paris' }),
  obs('Ada Lovelace', 'job', 'mathematician', NOW + 2 * DAY, 0.9, { evidence: '' }),
  obs('ada', 'friend', 'Élodie', NOW + 3 * DAY, 0.7, { evidence: 'ada and Élodie are friends' }),
  obs('Élodie', 'city', 'Nantes', NOW + DAY, 0.9, { evidence: 'Élodie works in Nantes' }),
  obs('élodie', 'pet', 'cat', NOW + DAY, 0.5, { evidence: 'elodie has a cat' }),
  obs('Bob_1', 'city', 'Lyon', NOW + DAY, 0.9, { evidence: 'Bob too moved to Lyon' }),
];
/** Older than Ada's last city update once FIRST is in: logged, and the dimension replayed. */
const LATE = [obs('Ada', 'city', 'Lyon', NOW + DAY / 2, 0.9, { evidence: 'late news: Ada was back in Lyon' })];
const QUESTIONS = ['Where does Ada live?', 'cafe', 'Élodie cat', 'lyon paris', 'nobody here'];

/** Everything the belief layer reads, as one value (`ids`: keep delta ids, equal only while no ingest was rolled back). */
function readBack(store: StoreWriter, ids = true) {
  const t = store.beliefTables();
  const entities = t.entities(undefined, 1000, 0);
  const names = [...new Set([...entities.map((e) => e.entity), ...FIRST.map((o) => o.entity)])];
  const deltas = t.deltasOfEntities(names).map((d) => (ids ? d : { ...d, id: 0 }));
  const evidence = QUESTIONS.map((q) => t.searchEvidence(ftsQuery(q), 10).map((h) => ({ evidence: t.delta(h.id)!.evidence, score: h.score, id: ids ? h.id : 0 })));
  return {
    counts: t.counts(),
    basis: ids ? t.basis() : null,
    dimensions: t.allDimensions(),
    ofAda: t.dimensionsOf('Ada'),
    entities,
    searches: [t.entities('ADA', 10, 0), t.entities('élo', 10, 0), t.entities('ÉLO', 10, 0), t.entities('_', 10, 0), t.entities('a', 2, 1)],
    entityCounts: [t.entityCount('ada'), t.entityCount('ÉLODIE'), t.entityCount(undefined)],
    deltas,
    timeline: t.timeline('Ada', undefined, 3, 1).map((d) => (ids ? d : { ...d, id: 0 })),
    untilCity: t.deltasOf('Ada', 'city', NOW + DAY).map((d) => d.value),
    last: ids ? t.lastDeltaAtOrBefore('Ada', 'city', NOW + DAY / 2) : null,
    scan: [...t.scan()],
    aliases: t.aliases(),
    rejections: t.rejections(),
    evidence,
    retrieval: retrieve(new BeliefModel(store), 'Where does Ada live, and her friend?', { at: NOW + 10 * DAY }),
  };
}

describe('beliefs on PostgreSQL read back as on SQLite', () => {
  let server: PgServer | null = null;
  let sqlite: MemoryStore;
  let pg: PgStore;
  let url = '';

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    const clock = fixedClock(NOW + 20 * DAY);
    sqlite = MemoryStore.open(join(tempDir('mnemo-pg-beliefs-'), 'beliefs.sqlite'), { create: true, clock, journalFollowUps: beliefJournalFollowUps });
    url = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=beliefs_compared`;
    pg = PgStore.open(url, { create: true, clock, journalFollowUps: beliefJournalFollowUps });
  });

  afterAll(() => {
    sqlite?.close();
    pg?.close();
    server?.stop();
  });

  const both = <T>(fn: (store: StoreWriter) => T): [T, T] => [fn(sqlite), fn(pg)];

  it('an ingest, an alias merge, its undo and redo, and a rejected pair', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    expect(new BeliefModel(pg).ingest(FIRST, NOW + 20 * DAY)).toEqual(new BeliefModel(sqlite).ingest(FIRST, NOW + 20 * DAY));
    const [a, b] = both((s) => new BeliefModel(s).ingest(LATE, NOW + 20 * DAY));
    expect(b).toEqual(a);
    expect(a.replayed_dimensions).toBe(1);
    const ingested = readBack(sqlite);
    expect(readBack(pg)).toEqual(ingested);
    // The cases the comparison is there for, so a read that answers nothing on both cannot pass.
    expect(ingested.searches[0]!.map((e) => e.entity)).toEqual(['Ada', 'Ada Lovelace', 'ada']);
    expect(ingested.searches[1]!.map((e) => e.entity)).toEqual(['élodie']);
    expect(ingested.searches[3]!.map((e) => e.entity)).toEqual(['Bob_1']);
    expect(ingested.evidence[1]!.map((h) => h.evidence)).toHaveLength(2);
    expect(ingested.deltas.some((d) => d.reliability === null && d.memory_id === null)).toBe(true);

    const [merge, pgMerge] = both((s) => applyAliasMerges(new BeliefModel(s), [{ alias: 'Ada Lovelace', canonical: 'Ada', divergence: 0.25, shared: 2 }], undefined, NOW + 21 * DAY));
    expect(pgMerge.merged).toEqual(merge.merged);
    const merged = readBack(sqlite);
    expect(merged.dimensions).not.toEqual(ingested.dimensions);
    expect(readBack(pg)).toEqual(merged);

    sqlite.journal.undo(merge.change_id!);
    pg.journal.undo(pgMerge.change_id!);
    expect(readBack(sqlite)).toEqual(ingested);
    expect(readBack(pg)).toEqual(ingested);

    sqlite.journal.redo(merge.change_id!);
    pg.journal.redo(pgMerge.change_id!);
    expect(readBack(pg)).toEqual(merged);
    expect(readBack(sqlite)).toEqual(merged);

    const [rejected, pgRejected] = both((s) => rejectAliasPair(new BeliefModel(s), 'ada', 'Élodie', NOW + 22 * DAY));
    expect(readBack(pg).rejections).toEqual([{ a: 'ada', b: 'Élodie', rejected_at: NOW + 22 * DAY }]);
    sqlite.journal.undo(rejected.change_id!);
    pg.journal.undo(pgRejected.change_id!);
    expect(readBack(pg)).toEqual(readBack(sqlite));
    expect(readBack(pg).rejections).toEqual([]);
  });

  it('an ingest rolled back leaves the dimensions and the evidence search as before, on both', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const before = readBack(sqlite, false);
    expect(readBack(pg, false)).toEqual(before);
    const more = Array.from({ length: 12 }, (_, i) => obs(`Guest ${i % 3}`, 'city', i % 2 ? 'Lyon' : 'Nice', NOW + 5 * DAY + i, 0.9, { evidence: `guest ${i} stayed in Lyon` }));
    for (const store of [sqlite, pg]) {
      // A one-transaction ingest that fails after writing, and a batched one cancelled halfway.
      expect(() =>
        store.transaction(() => {
          new BeliefModel(store).ingest(more, NOW + 30 * DAY);
          expect(store.beliefTables().searchEvidence(ftsQuery('guest'), 50)).toHaveLength(12);
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      let batches = 0;
      await expect(new BeliefModel(store).ingestInBatches(more, NOW + 30 * DAY, { pacing: { maxBatchItems: 4, pauseMs: 0 }, shouldCancel: () => ++batches > 2 })).rejects.toMatchObject({
        code: 'conflict',
      });
    }
    expect(readBack(sqlite, false)).toEqual(before);
    expect(readBack(pg, false)).toEqual(before);
    // Then kept: the search finds the new deltas, with the same scores on both.
    for (const store of [sqlite, pg]) new BeliefModel(store).ingest(more.slice(0, 5), NOW + 31 * DAY);
    const after = readBack(sqlite, false);
    expect(after.evidence[3]!.length).toBeGreaterThan(before.evidence[3]!.length);
    expect(readBack(pg, false)).toEqual(after);
  });

  it('another connection sees the beliefs and finds the evidence written through this one', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const other = PgStore.openReader(url);
    try {
      const search = (s: StoreReader) => s.beliefTables().searchEvidence(ftsQuery('Lyon paris'), 20);
      expect(search(other)).toEqual(search(pg));
      new BeliefModel(pg).ingest([obs('Zoe', 'city', 'Lyon', NOW + 40 * DAY, 0.9, { evidence: 'Zoe moved to Lyon' })], NOW + 40 * DAY);
      expect(search(other)).toEqual(search(pg));
      const zoe = (s: StoreReader) => s.beliefTables().searchEvidence(ftsQuery('zoe'), 5).map((h) => h.id);
      const ours = zoe(pg);
      expect(ours).toHaveLength(1);
      expect(zoe(other)).toEqual(ours);
      expect(other.beliefTables().counts()).toEqual(pg.beliefTables().counts());
    } finally {
      other.close();
    }
  });
});
