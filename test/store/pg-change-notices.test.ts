/**
 * Commit notifications of a PostgreSQL store (pg-feed-notify-ddl.ts, pg-change-notices.ts) and the
 * live refresh they wake (core/host/live-refresh.ts), on a real server.
 *
 * What could go wrong: a commit by another connection wakes nobody, so the open views wait for the
 * poll; a rolled-back change or another store's commit wakes a view for nothing; a store made before
 * the notification never gets it (its feed's triggers are only installed once); an agent's role,
 * which may not replace the feed's functions, cannot open such a store at all; the listener stays
 * connected after its store closes.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { ApiSession } from '../../core/api/context.js';
import { LiveRefresh } from '../../core/host/live-refresh.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { PG_FEED_DDL_LEVEL } from '../../core/store/pg/pg-feed-ddl.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { pgStores } from '../helpers/pg-stores.js';

const NOW = 1_780_000_000;
const SCHEMAS = ['pgnote_wake', 'pgnote_other', 'pgnote_old', 'pgnote_live'];

describe('commit notifications of a PostgreSQL store', () => {
  const pg = pgStores(SCHEMAS);
  const { storeUrl, track } = pg;
  const connect = (schema: string) => pg.connect(schema, fixedClock(NOW));
  const remember = (store: PgStore, id: string) => store.add(createMemory({ id, content: `note ${id}`, owner: 'a@1' }, NOW), null);
  /** Waits until `count()` passes `past`, up to 10 s (a notification is not instant, but no poll runs here). */
  const waitPast = async (count: () => number, past: number) => {
    await expect.poll(count, { timeout: 10_000, interval: 20 }).toBeGreaterThan(past);
  };
  const listenerCount = () => Number(pg.admin.query<{ n: string }>(`SELECT count(*)::text AS n FROM pg_stat_activity WHERE application_name = 'mnemo-live'`)[0]!.n);

  it("wakes a watcher when another connection commits, and not for a rollback or another store's commit", async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const viewer = connect('pgnote_wake');
    const writer = connect('pgnote_wake');
    const elsewhere = connect('pgnote_other');
    let wakes = 0;
    const stop = viewer.watchCommits(() => (wakes += 1));
    await waitPast(() => wakes, 0); // the first wake-up comes once it listens (commits before were not heard)
    const listening = wakes;

    expect(() =>
      writer.transaction(() => {
        remember(writer, 'rolled-back');
        throw new Error('abandon');
      }),
    ).toThrow('abandon');
    remember(elsewhere, 'other-store');
    remember(writer, 'committed');
    await waitPast(() => wakes, listening);
    // Both the rollback and the other schema's commit came before the commit, on other connections' order; one wake for the one commit.
    await new Promise((r) => setTimeout(r, 200));
    expect(wakes).toBe(listening + 1);
    expect(viewer.refreshIfChanged()).toBe(true);
    stop!();
    await expect.poll(listenerCount, { timeout: 10_000 }).toBe(0);
  });

  it('brings the feed of a store from before the notification up to date at a writable open, once', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    connect('pgnote_old').close();
    // The grant is an operator's writable open (it brings the store up to date): made first.
    const agentUrl = grantAgent(storeUrl('pgnote_old'), 'coder@1').url;
    // As a store made by the build before: no notify trigger, no level recorded.
    pg.admin.query('DROP TRIGGER mnemo_pg_feed_notify ON pgnote_old.mnemo_pg_feed');
    pg.admin.query(`DELETE FROM pgnote_old.mnemo_pg_store WHERE key = 'feed_ddl_level'`);
    const triggers = () => pg.admin.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'pgnote_old.mnemo_pg_feed'::regclass AND NOT tgisinternal`).length;
    expect(triggers()).toBe(0);

    track(PgStore.open(storeUrl('pgnote_old'), { readonly: true, clock: fixedClock(NOW) }));
    expect(triggers()).toBe(0); // a read-only open changes nothing
    // An agent's role may not replace the feed's functions: it opens the store as it is, and writes.
    const agent = track(PgStore.open(agentUrl, { clock: fixedClock(NOW) }));
    agent.change('add by-agent', 'memory.add', () => agent.add(createMemory({ id: 'by-agent', content: 'written by the agent', owner: 'coder@1' }, NOW), null));
    expect(triggers()).toBe(0);

    const viewer = connect('pgnote_old');
    expect(triggers()).toBe(1);
    expect(pg.admin.query<{ value: string }>(`SELECT value FROM pgnote_old.mnemo_pg_store WHERE key = 'feed_ddl_level'`)[0]!.value).toBe(String(PG_FEED_DDL_LEVEL));
    let wakes = 0;
    viewer.watchCommits(() => (wakes += 1));
    await waitPast(() => wakes, 0);
    const listening = wakes;
    remember(connect('pgnote_old'), 'after-upgrade');
    await waitPast(() => wakes, listening);
    viewer.close();
    await expect.poll(listenerCount, { timeout: 10_000 }).toBe(0); // closing the store closes its listeners
  });

  it('moves a live view at once when another process commits, with the poll an hour away', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    connect('pgnote_live');
    const session = new ApiSession({ clock: fixedClock(NOW) });
    session.open(storeUrl('pgnote_live'));
    const live = new LiveRefresh(session, 3_600_000);
    live.start();
    live.check(); // what the first poll does: finds the store and starts hearing it
    const writer = connect('pgnote_live');
    await new Promise((r) => setTimeout(r, 300)); // the listener connects
    const before = live.generation;
    remember(writer, 'seen-live');
    await waitPast(() => live.generation, before);
    live.stop();
    session.close();
  });
});
