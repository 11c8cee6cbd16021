/**
 * The PostgreSQL adapter under the port's contract suite: a real server (MNEMO_TEST_PG_URL, or a
 * throwaway cluster from pg-cluster.ts), one fresh schema per test, dropped when the test ends.
 */
import type { Clock } from '../core/clock.js';
import { PgStore } from '../core/store/pg/pg-store.js';
import { SyncPg } from '../core/store/pg/sync-pg.js';
import { pgUnavailable, startPg, type PgServer } from './pg-cluster.js';
import type { StoreAdapter, StoreUnderTest } from './store-adapters.js';

/** Why no server can be had here, or null (then setUp starts one). */
const unavailable = pgUnavailable;

let server: PgServer | null = null;
let admin: SyncPg | null = null;
let made = 0;

export const pgAdapter: StoreAdapter = {
  name: 'postgres',
  unavailable,
  setUp() {
    if (unavailable()) return;
    server = startPg();
    admin = SyncPg.connect(server.url);
  },
  tearDown() {
    admin?.close();
    admin = null;
    server?.stop();
    server = null;
  },
  fresh(clock: Clock): StoreUnderTest {
    if (!server || !admin) throw new Error('the PostgreSQL adapter was not set up (setUp starts its server)');
    const schema = `contract_${process.pid}_${++made}`;
    const db = admin;
    db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    const url = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${schema}`;
    const opened: { close(): void }[] = [];
    const track = <S extends { close(): void }>(s: S): S => (opened.push(s), s);
    return {
      store: track(PgStore.open(url, { create: true, clock })),
      openAnother: () => track(PgStore.open(url, { clock })),
      openReader: () => track(PgStore.openReader(url, { clock })),
      dispose() {
        for (const s of opened.reverse()) s.close();
        db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    };
  },
};
