import { countEvents } from '../../store/access-events.js';
import { readMnemoVersion } from '../../store/migrations.js';
import type { Engine } from '../../engine/engine.js';
import type { ApiSession } from '../context.js';
import { ANY_PATH, permittedPath } from '../path-policy.js';
import type { StoreInfo } from '../contract/index.js';
import type { storeContract } from '../contract/store.js';
import type { HandlersFor } from './types.js';

export function storeInfo(engine: Engine, session?: ApiSession): StoreInfo {
  const store = engine.store;
  const db = store.db;
  const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const total = n('SELECT count(*) AS n FROM memories');
  const archived = n('SELECT count(*) AS n FROM memories WHERE archived = 1');
  return {
    path: store.path,
    name: store.name,
    profile: engine.profile(),
    readonly: store.readonly,
    nooa_schema_version: db.pragma('user_version', { simple: true }) as number,
    mnemo_schema_version: readMnemoVersion(db),
    data_version: store.dataVersion(),
    embedder: engine.embedder.name,
    dim: engine.embedder.dim,
    now: engine.now(),
    clock_frozen: session?.clockFrozen ?? false,
    counts: {
      memories: total,
      live: total - archived,
      archived,
      edges: n('SELECT count(*) AS n FROM memory_edges'),
      events: countEvents(db),
      changes: store.hasMnemo() ? n('SELECT count(*) AS n FROM mnemo_journal') : 0,
    },
  };
}

export const storeHandlers: HandlersFor<typeof storeContract> = {
  'store.open': (input, session) => {
    const path = permittedPath(session.shell.paths ?? ANY_PATH, input.path, 'store');
    return storeInfo(session.open(path, { readonly: input.readonly ?? false }), session);
  },
  'store.info': (_input, session) => storeInfo(session.engine(), session),
};
