/**
 * What a catch-up costs on PostgreSQL, in round trips. An agent's write beside other agents first
 * catches up with their writes, and on a network each statement is a wait: the check (with the long
 * change's marker), the feed's rows (with whether each memory is still there), and the rows read
 * ahead (memories and edges together). What could go wrong: a transaction, a fact or a marker read
 * coming back as statements of their own, or the read-ahead splitting again; and, with the
 * statements merged, an index patched from the wrong rows (a deleted memory told as an upsert, an
 * edge or a title lost in the merged read).
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { openStore } from '../../core/index.js';
import type { JournalledStore } from '../../core/store/shared/journal.js';
import { clearMarker, writeMarker } from '../../core/store/shared/run-marker.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { pgServer } from '../helpers/pg-server.js';
import { statementsOf } from '../helpers/pg-statements.js';

const server = pgServer();
const NOW = 1_780_000_000;

function session(url: string): ApiSession {
  const s = new ApiSession({ clock: fixedClock(NOW + 10), reader: { owner: 'ui', session_ref: null } });
  s.open(url);
  return s;
}

async function view(s: ApiSession): Promise<unknown> {
  const explained = (await call(s, 'recall.explain', { query: 'billing owner notifier', k: 8, hops: 2 })) as { rows: { id: string; score: number }[] };
  const listed = (await call(s, 'memory.list', { text: 'notifier', limit: 50 })) as { total: number; rows: { id: string; title: string | null }[] };
  return { ranked: explained.rows.map((r) => [r.id, r.score.toFixed(6)]), total: listed.total, titles: listed.rows.map((r) => [r.id, r.title]) };
}

/** The engine's store is the journalled PostgreSQL store, whose marker the long changes write (run-marker.ts). */
const journalled = (store: unknown) => store as JournalledStore;

describe.skipIf(server.unavailable)('a catch-up on PostgreSQL', () => {
  it('hears another connection in three statements, and patches the indexes to what a fresh engine builds', async () => {
    const url = freshSchemaUrl(server.url, 'catch_up_trips');
    const writer = openStore(url, { owner: 'a@1', session: 's', clock: fixedClock(NOW) });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await writer.remember({ content: `the billing service notifier number ${i} is owned by Dana ${i * 13}`, title: `notifier ${i}` })).id);
    const viewer = session(url);
    await view(viewer); // every index the view reads is built
    const store = viewer.engine().store;

    // Another connection: a new memory, an edge from an old one to it, a changed title, and a forget.
    const made = (await writer.remember({ content: 'the billing owner is now Lior, said the notifier', title: 'notifier moved' })).id;
    writer.associate(ids[0]!, made, 'related');
    await writer.updateMemory(ids[1]!, { title: 'notifier renamed' });
    await writer.forget(ids[2]!);

    // What an index does before it is read (derived.ts): catch up, which checks first.
    const sent = await statementsOf(() => store.catchUp());
    expect(sent, sent.join('\n')).toHaveLength(3);
    expect(sent[0]).toMatch(/^WITH w AS .* AS xmin, EXISTS/);
    expect(sent[1]).toMatch(/^WITH w AS .* AS xmin, \(SELECT value/);
    expect(sent[2]).toMatch(/^SELECT 0 AS ahead_kind/);

    const fresh = session(url);
    try {
      expect(await view(viewer)).toEqual(await view(fresh));
    } finally {
      fresh.close();
    }
    viewer.close();
    writer.close();
  });

  it('reads the long change marker with the check: a run in progress holds the indexes back without a statement of its own', async () => {
    const url = freshSchemaUrl(server.url, 'catch_up_marker');
    const writer = openStore(url, { owner: 'a@1', session: 's', clock: fixedClock(NOW) });
    await writer.remember({ content: 'first memory about the notifier' });
    const viewer = session(url);
    await view(viewer);
    const store = viewer.engine().store;
    // Another process's long change, as its marker says (a pid that is not this one, on another host: assumed live).
    writeMarker(journalled(writer.engine.store), { change_id: 999, mode: 'record', label: 'reflect', pid: 1, host: 'elsewhere', started_at: NOW, cursor: null });
    await writer.remember({ content: 'second memory about the notifier' });
    const held = await statementsOf(() => expect(store.refreshIfChanged()).toBe(false));
    expect(held, held.join('\n')).toHaveLength(1);
    clearMarker(journalled(writer.engine.store));
    await writer.remember({ content: 'third memory about the notifier' });
    const heard = await statementsOf(() => expect(store.refreshIfChanged()).toBe(true));
    expect(heard, heard.join('\n')).toHaveLength(1);
    viewer.close();
    writer.close();
  });

  it("indexes an agent's new memory from what its write holds, reading nothing back, and finds it as a duplicate next", async () => {
    const url = freshSchemaUrl(server.url, 'remember_reads');
    const agent = openStore(url, { owner: 'a@1', session: 's', clock: fixedClock(NOW) });
    await agent.remember({ content: 'the billing service is owned by Dana' });
    await agent.remember({ content: 'the deploy cache was cleared on staging' }); // builds the vector index
    let made: Awaited<ReturnType<typeof agent.remember>> | undefined;
    const sent = await statementsOf(async () => {
      made = await agent.remember({ content: 'the notifier runs on host amber-7 since the rollout' });
    });
    if (!made) throw new Error('remember returned nothing');
    expect(made.reinforced).toBe(false);
    expect(sent.filter((q) => /^SELECT rowid, id, owner, archived, embedding FROM \S+ WHERE id = \$1$/.test(q)), sent.join('\n')).toEqual([]);
    expect(sent.filter((q) => /archived = 0 LIMIT 1/.test(q)), 'whether the store is empty, asked once').toHaveLength(1);
    // The vector index holds the new memory as the table has it: the same text again reinforces it.
    const again = await agent.remember({ content: 'the notifier runs on host amber-7 since the rollout' });
    expect(again).toMatchObject({ reinforced: true, id: made.id });
    agent.close();
  });
});
