/** The access audit list (event table, ring fallback), rows vs reads, and the stats methods. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { listAccesses } from '../../core/observe/access-log.js';
import { rowsVsReads } from '../../core/observe/rows-vs-reads.js';
import { recallAndLog } from '../../core/recall/record.js';
import { FIXTURE_STORE, expected, tempDir } from '../../support/fixture.js';
import { newEngine, put } from '../helpers/recall-store.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

let engine: Engine;
afterEach(() => engine?.close());

describe('access.list', () => {
  it('filters the event table by channel, reader, cross-owner, query text and memory', () => {
    engine = newEngine();
    const mine = put(engine, { content: 'deploy billing', owner: 'Planner@a1' });
    put(engine, { content: 'deploy search', owner: 'Coder@c3' });
    recallAndLog(engine, { query: 'deploy billing', k: 2 }, 'recalled', { owner: 'Planner@b2', session_ref: 's1' });
    recallAndLog(engine, { query: 'deploy search', k: 2 }, 'searched', { owner: 'Coder@c3', session_ref: 's2' });
    const all = listAccesses(engine, {});
    expect(all.source).toBe('events');
    expect(all.total).toBe(4);
    expect(listAccesses(engine, { channels: ['searched'] }).total).toBe(2);
    expect(listAccesses(engine, { readerOwner: 'Planner@b2' }).events.every((e) => e.reader_owner === 'Planner@b2')).toBe(true);
    const cross = listAccesses(engine, { crossOwnerOnly: true }).events;
    // Planner@b2 reading Coder@c3's memory, and Coder@c3 reading Planner@a1's; a same-role read across instances is not cross-owner.
    expect(cross.map((e) => [e.reader_owner, e.memory_owner]).sort()).toEqual([
      ['Coder@c3', 'Planner@a1'],
      ['Planner@b2', 'Coder@c3'],
    ]);
    expect(listAccesses(engine, { query: 'SEARCH' }).total).toBe(2); // LIKE is case-insensitive for ASCII
    const one = listAccesses(engine, { memoryId: mine.id.slice(0, 10) });
    expect(one.events.every((e) => e.memory_id === mine.id && e.head === 'deploy billing')).toBe(true);
    const page = listAccesses(engine, { limit: 1, offset: 1, order: 'asc' });
    expect(page.events).toHaveLength(1);
    expect(page.total).toBe(4);
  });

  it('falls back to the rings on a plain nooa store (no event table), read-only', () => {
    const path = join(tempDir(), 'store.sqlite');
    copyFileSync(FIXTURE_STORE, path);
    engine = Engine.open(path, { readonly: true, clock: fixedClock(expected().now) });
    const res = listAccesses(engine, { channels: ['recalled'], limit: 5 });
    expect(res.source).toBe('rings');
    expect(res.total).toBeGreaterThan(100);
    expect(res.events[0]!.event_id).toBeNull();
    expect(res.events[0]!.ts).toBeGreaterThanOrEqual(res.events[1]!.ts);
    const cross = listAccesses(engine, { crossOwnerOnly: true, limit: 10_000 });
    expect(cross.total).toBe(expected().kpis[0].kpis.cross_owner_reads + countArchivedCross(engine));
  });
});

/** store_kpis counts live memories only; the audit list covers archived ones too. */
function countArchivedCross(e: Engine): number {
  let n = 0;
  for (const m of allMemories(e.store, { includeArchived: true })) {
    if (!m.archived) continue;
    for (const r of m.access_log) if (r.reader_owner && m.owner && r.reader_owner.split('@')[0] !== m.owner.split('@')[0]) n++;
  }
  return n;
}

describe('rows vs reads', () => {
  it('shares of rows and of fetches per type', () => {
    engine = newEngine();
    for (let i = 0; i < 3; i++) put(engine, { content: `reflection ${i}`, type: 'reflection' });
    const info = put(engine, { content: 'deploy billing', type: 'info' });
    for (let i = 0; i < 4; i++) recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'recalled', { owner: '', session_ref: null });
    const r = rowsVsReads(engine, null);
    const byType = new Map(r.rows.map((x) => [x.type, x]));
    expect(r.total_rows).toBe(4);
    expect(byType.get('reflection')).toMatchObject({ rows: 3, row_share: 0.75, reads: 0, read_share: 0, read_ratio: 0 });
    expect(byType.get('info')).toMatchObject({ rows: 1, reads: 4, read_share: 1, read_ratio: 4 });
    expect(byType.get('skill')).toMatchObject({ rows: 0, read_ratio: null });
    expect(engine.store.get(info.id)!.recalled_count).toBe(4);
  });

  it('stats.kpis, stats.usage and stats.rowsVsReads through the API on the fixture', async () => {
    const path = join(tempDir(), 'store.sqlite');
    copyFileSync(FIXTURE_STORE, path);
    const session = ApiSession.withFrozenClock(expected().now);
    session.open(path, { readonly: true });
    const kpis = await call(session, 'stats.kpis', { owner: 'Planner' });
    expect(kpis).toEqual(expected().kpis[1].kpis);
    const usage = await call(session, 'stats.usage', { ids: [expected().usage[0].id.slice(0, 8)] });
    expect(usage.rows[0]!.fetches).toBe(expected().usage[0].fetches);
    const rvr = await call(session, 'stats.rowsVsReads', {});
    expect(rvr.total_rows).toBe(expected().kpis[0].kpis.total);
    expect(rvr.total_reads).toBe(expected().kpis[0].kpis.total_fetches);
    session.close();
  });
});
