/**
 * A catch-up on PostgreSQL reads the changed memories' rows and edges in one statement
 * (pg-read-ahead.ts) instead of one per memory and per index. What could go wrong: an index patched
 * from a held row that is not the store's (a deleted memory read as present, an edge missed because
 * only one of its ends changed, a neighbour of a changed memory answered as edgeless), or the
 * round trips still growing with the number of changes.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { openStore } from '../../core/index.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { pgServer } from '../helpers/pg-server.js';
import { statementsOf } from '../helpers/pg-statements.js';

const server = pgServer();
const NOW = 1_780_000_000;

const QUERIES = ['deploy cache failure', 'alice fixed the notifier', 'staging rollout amber', 'lockfile regenerated'];

function session(url: string): ApiSession {
  const s = new ApiSession({ clock: fixedClock(NOW + 10), reader: { owner: 'ui', session_ref: null } });
  s.open(url);
  return s;
}

async function ranking(s: ApiSession): Promise<unknown> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const res = (await call(s, 'recall.explain', { query, k: 8, hops: 2 })) as { rows: { id: string; score: number }[] };
    out.push(res.rows.map((r) => [r.id, r.score.toFixed(6)]));
  }
  const list = (await call(s, 'memory.list', { text: 'alice notif', limit: 500 })) as { total: number };
  out.push(list.total);
  return out;
}

describe.skipIf(server.unavailable)('catch-up with rows read ahead', () => {
  it('patches the indexes to what a fresh engine builds, in a number of round trips that does not grow with the changes', async () => {
    const url = freshSchemaUrl(server.url, 'read_ahead');
    const seed = openStore(url, { owner: 'a@1', session: 's', clock: fixedClock(NOW) });
    const first: string[] = [];
    for (let i = 0; i < 20; i++) first.push((await seed.remember({ content: `deploy cache failure number ${i} on staging rollout amber ${i * 31}` })).id);
    const viewer = session(url);
    await ranking(viewer); // every index built
    const trips: number[] = [];
    for (const size of [10, 60]) {
      const made: string[] = [];
      for (let i = 0; i < size; i++) made.push((await seed.remember({ content: `alice fixed the notifier ${size} ${i} lockfile regenerated ${i * 7}` })).id);
      // Edges with only one end among the changed memories, and a change to an old memory.
      seed.associate(made[0]!, first[0]!, 'related');
      seed.associate(first[1]!, made[1]!, 'causes');
      await seed.forget(first[2 + size / 10]!);
      viewer.engine().store.refreshIfChanged();
      let got: unknown;
      const sent = await statementsOf(async () => {
        got = await ranking(viewer);
      });
      trips.push(sent.length);
      const fresh = session(url);
      try {
        expect(got).toEqual(await ranking(fresh));
      } finally {
        fresh.close();
      }
    }
    // Six times the changes, the same round trips give or take a few (one per memory per index before).
    expect(trips[1]! - trips[0]!, `round trips: ${trips.join(' then ')}`).toBeLessThan(10);
    viewer.close();
    seed.close();
  });
});
