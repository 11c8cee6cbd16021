/**
 * Several accesses of one memory written together (a recall's, or the many kept through a long
 * change's batch: core/store/sqlite/sqlite-access-log.ts) read and rewrite that memory's row once,
 * and must leave exactly what writing them one at a time leaves: every ring entry in order, the
 * counters and strength, each event's strength after it, and the other memories' rows.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import type { AccessWrite } from '../../core/store/port/port.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const open: MemoryStore[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function rowsAndEvents(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      memories: db.prepare('SELECT id, strength, last_accessed, access_count, data FROM memories ORDER BY rowid').all(),
      events: db.prepare('SELECT memory_id, ts, channel, reader_owner, query, rank, strength_after, reinforce FROM mnemo_access_events ORDER BY rowid').all(),
    };
  } finally {
    db.close();
  }
}

describe('accesses of one memory written together', () => {
  it('leave what writing them one at a time leaves', () => {
    const dir = tempDir();
    const one = join(dir, 'one.sqlite');
    const store = MemoryStore.open(one, { create: true, clock: fixedClock(NOW) });
    const a = createMemory({ content: 'the payments deploy failed on a missing secret', owner: 'Planner@a1' }, NOW - 3600);
    const b = createMemory({ content: 'the billing service is owned by Dana', owner: 'Planner@a1' }, NOW - 7200);
    store.add(a, null);
    store.add(b, null);
    store.close();
    const together = join(dir, 'together.sqlite');
    copyFileSync(one, together);

    const at = (id: string, ts: number, rank: number, channel: 'recalled' | 'injected' = 'recalled', reinforce?: boolean): AccessWrite => ({
      id,
      record: accessRecord(ts, channel, { reader_owner: 'Planner@a1', query: `q${ts}`, rank, score: 1 / rank }),
      ...(reinforce === undefined ? {} : { reinforce }),
    });
    // a three times (one of them an injection, one not reinforcing), b twice, and a memory that does not exist.
    const writes = [at(a.id, NOW + 1, 1), at(b.id, NOW + 1, 2), at('no-such-memory', NOW + 1, 3), at(a.id, NOW + 2, 1, 'injected'), at(b.id, NOW + 3, 1), at(a.id, NOW + 4, 2, 'recalled', false)];

    const oneByOne = MemoryStore.open(one, { clock: fixedClock(NOW + 5) });
    open.push(oneByOne);
    for (const w of writes) oneByOne.logAccesses([w]);
    const grouped = MemoryStore.open(together, { clock: fixedClock(NOW + 5) });
    open.push(grouped);
    grouped.logAccesses(writes);

    const expected = rowsAndEvents(one);
    const got = rowsAndEvents(together);
    expect(got).toEqual(expected);
    // Not vacuous: a's ring holds its three accesses, and the events' strength counts up per reinforcing access.
    expect(expected.events.filter((e) => (e as { memory_id: string }).memory_id === a.id).map((e) => (e as { strength_after: number }).strength_after)).toEqual([2, 2, 2]);
    expect(grouped.get(a.id)!.access_log.map((r) => r.channel).slice(-3)).toEqual(['recalled', 'injected', 'recalled']);
    expect(grouped.get(b.id)!.access_count).toBe(oneByOne.get(b.id)!.access_count);
  });
});
