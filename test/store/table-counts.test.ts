/**
 * store.info's row counts are kept while the file stands still (core/store/queries/counts.ts, keptTableCounts): the
 * views poll it several times a second, and counting a million access events each time kept a
 * worker busy. What could go wrong: a count kept past a change, ours or another connection's.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

describe("store.info's counts", () => {
  it("follow our own writes and another connection's commits at once", async () => {
    const db = fixtureCopy();
    const session = ApiSession.withFrozenClock(expected().now);
    session.open(db);
    try {
      const info = await call(session, 'store.info', {});
      const first = info.counts;
      // No long change is being written: the counts are the rows as they are, and say so.
      expect(info.counts_held).toBeNull();
      expect((await call(session, 'store.info', {})).counts).toEqual(first);
      const m = await call(session, 'memory.add', { content: 'a memory the count must see' });
      expect((await call(session, 'store.info', {})).counts).toMatchObject({ memories: first.memories + 1, live: first.live + 1 });
      await call(session, 'memory.archive', { ids: [m.id] });
      expect((await call(session, 'store.info', {})).counts).toMatchObject({ memories: first.memories + 1, archived: first.archived + 1 });
      // Another connection (another process or worker) deletes an edge and a memory.
      const other = new Database(db, { timeout: 5000 });
      const edges = (other.prepare('SELECT count(*) AS n FROM memory_edges').get() as { n: number }).n;
      other.prepare('DELETE FROM memory_edges WHERE rowid = (SELECT min(rowid) FROM memory_edges)').run();
      other.prepare('DELETE FROM memories WHERE id = ?').run(m.id);
      other.close();
      expect((await call(session, 'store.info', {})).counts).toMatchObject({ memories: first.memories, archived: first.archived, edges: edges - 1 });
    } finally {
      session.close();
    }
  });
});
