/**
 * A journalled add on PostgreSQL (what `remember` writes) in a few bridge round trips: BEGIN goes
 * with the first statement, the new row is held from its INSERT … RETURNING (with the memory's
 * edges), so the edge comparison and the journal's after-image read nothing, and the journal's
 * tail and the access events go with the COMMIT. What could go wrong: an after-image made from
 * what was written that differs from what a read of the table gives (undo would then see drift
 * that is not there), edges lost or kept wrongly when a memory is replaced, a deferred write
 * never sent, and the round trips creeping back up (14 per add before).
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory, type Memory } from '../../core/model/memory.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { bridgeRoundTrips } from '../../core/store/pg/sync-pg.js';
import { pgStores } from '../helpers/pg-stores.js';
import { memoryEmbedding } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const SCHEMA = 'write_round_trips';
const pg = pgStores([SCHEMA]);

function vector(seed: number): Float32Array {
  return Float32Array.from({ length: 256 }, (_v, i) => Math.sin(seed * 31 + i) / 7);
}

/** add() and the access events of its `created` entry as one change, as addMemory writes them. */
function journalledAdd(store: PgStore, m: Memory, vec: Float32Array | null): number {
  return store.change(`add ${m.id.slice(0, 8)}`, 'memory.add', () => {
    store.add(m, vec);
    store.recordAccessEvents(m.id, m.access_log, m.strength);
  }).changeId!;
}

describe.skipIf(pg.unavailable)('a journalled add on PostgreSQL', () => {
  it('takes four round trips, and journals the images a read of the table gives', () => {
    const store = pg.connect(SCHEMA, fixedClock(NOW));
    const [b, c] = [createMemory({ content: 'a target of edges' }, NOW), createMemory({ content: 'another target' }, NOW)];
    // Journalled too: the connection's first journalled write asks once which journal statements its role gets.
    journalledAdd(store, b!, null);
    journalledAdd(store, c!, null);
    const a = createMemory({ content: 'the memory added', edges: [{ target_id: b!.id, type: 'related', weight: 0.5, created_at: NOW }] }, NOW);
    const rt = bridgeRoundTrips();
    const first = journalledAdd(store, a, vector(1));
    // The before-image, the INSERT, the journal's id, the COMMIT.
    expect(bridgeRoundTrips() - rt).toBeLessThanOrEqual(4);

    const fresh = pg.track(PgStore.open(pg.storeUrl(SCHEMA), { clock: fixedClock(NOW) }));
    const image = () => JSON.stringify(fresh.journal.snapshot(`m:${a.id}`));
    const [row] = fresh.journal.rows(first);
    expect(JSON.stringify(row!.after)).toBe(image());
    expect(row!.before).toBeNull();
    expect(fresh.neighbors(a.id).map((e) => e.target_id)).toEqual([b!.id]);
    expect(fresh.accessEvents({ memoryId: a.id }).total).toBe(1);

    // Replaced with other edges: a new rowid, the edge list rewritten, both images as read.
    const replaced = { ...a, content: 'the memory replaced', edges: [{ target_id: c!.id, type: 'supports' as const, weight: 1, created_at: NOW + 1 }] };
    const before = image();
    const second = journalledAdd(store, replaced, vector(2));
    const [row2] = fresh.journal.rows(second);
    expect(JSON.stringify(row2!.before)).toBe(before);
    expect(JSON.stringify(row2!.after)).toBe(image());
    expect(fresh.neighbors(a.id).map((e) => [e.target_id, e.type])).toEqual([[c!.id, 'supports']]);

    // Replaced with the same edges: they stay as they are (no rewrite), and undo gives back the first.
    const third = journalledAdd(store, { ...replaced, content: 'once more' }, null);
    expect(fresh.get(a.id)!.content).toBe('once more');
    expect(memoryEmbedding(fresh, a.id)).toBeNull();
    store.journal.undo(third);
    store.journal.undo(second);
    // Written back over the row that stands (its rowid stays, as on SQLite).
    const { rowid: _rowid, ...restored } = fresh.journal.snapshot(`m:${a.id}`) as Record<string, unknown>;
    const { rowid: _first, ...added } = row!.after as Record<string, unknown>;
    expect(restored).toEqual(added);
  });
  // Many rows go as JSON parameters (pg-sql.ts jsonTextsParam), not text arrays: odd text must come back byte for byte.
  it('journals many rows of odd text exactly, and undoes them', () => {
    const store = pg.connect(SCHEMA, fixedClock(NOW));
    const odd = ['quotes " and \\ backslashes \\" {"json": [1, "two"]}', 'emoji 🧠 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, e\u0301, ß, İ, ﬁ', 'lines\nand\ttabs\r\n', 'NULL', '', '{"a":"b"}', 'ARRAY[1,2]', "it's", '\\x00ff'];
    const ms = odd.map((content, i) => createMemory({ content, title: `odd ${i} "${content.slice(0, 5)}"`, tags: [content.slice(0, 8), 'Ünïcödé'] }, NOW));
    for (const m of ms) journalledAdd(store, m, vector(3));
    const fresh = pg.track(PgStore.open(pg.storeUrl(SCHEMA), { clock: fixedClock(NOW) }));
    const images = ms.map((m) => JSON.stringify(fresh.journal.snapshot(`m:${m.id}`)));
    const change = store.change('archive the odd ones', 'memory.archive', () => {
      for (const m of ms) store.setArchived(m.id, true);
    }).changeId!;
    const rows = fresh.journal.rows(change);
    expect(rows.map((r) => r.key)).toEqual(ms.map((m) => `m:${m.id}`));
    expect(rows.map((r) => JSON.stringify(r.before))).toEqual(images);
    expect(rows.map((r) => JSON.stringify(r.after))).toEqual(ms.map((m) => JSON.stringify(fresh.journal.snapshot(`m:${m.id}`))));
    expect(ms.map((m) => fresh.get(m.id)!.content)).toEqual(odd);
    store.journal.undo(change);
    expect(ms.map((m) => JSON.stringify(fresh.journal.snapshot(`m:${m.id}`)))).toEqual(images);
  });
});
