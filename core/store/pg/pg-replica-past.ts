/**
 * Which read replica a store as of an instant is read on (PgStore.openAsOf with replicas): the
 * first that answers, is a standby, and has the store's time-travel functions (the feed's DDL level
 * 5, pg-history-functions.ts); none such, and the past is read on the primary, with a warning. The
 * past store's connection is the replica's, named as the store for people.
 */
import { historyFunction } from './pg-history-functions.js';
import type { PgStoreUrl } from './pg-url.js';
import { SyncPg } from './sync-pg.js';

export function pastOnReplica(store: PgStoreUrl, replicas: readonly PgStoreUrl[], onWarning?: (message: string) => void): PgStoreUrl | null {
  const why: string[] = [];
  for (const replica of replicas) {
    let pg: SyncPg | null = null;
    try {
      pg = SyncPg.connect(replica.connection);
      const [r] = pg.query<{ standby: boolean; ready: boolean }>('SELECT pg_is_in_recovery() AS standby, to_regprocedure($1) IS NOT NULL AS ready', [historyFunction(store.schema, 'memories')]);
      if (r?.standby && r.ready) return { ...replica, shown: store.shown, standby: true };
      why.push(`${replica.shown}: ${r?.standby ? "the store's schema has no time-travel functions yet (a writable open with this build adds them)" : 'not a standby'}`);
    } catch (err) {
      why.push(`${replica.shown}: ${(err as Error).message}`);
    } finally {
      pg?.close();
    }
  }
  (onWarning ?? ((m: string) => process.emitWarning(m, { code: 'MNEMO_STORE' })))(`time travel reads the primary ${store.shown}: no replica can serve it (${why.join('; ')})`);
  return null;
}
