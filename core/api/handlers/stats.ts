import { parseOwnerScope, roleOf } from '../../model/owner.js';
import { ownerClause } from '../../store/owner-sql.js';
import { countEvents } from '../../store/access-events.js';
import type { statsContract } from '../contract/stats.js';
import type { HandlersFor } from './types.js';

export const statsHandlers: HandlersFor<typeof statsContract> = {
  'stats.basic': (input, session) => {
    const db = session.engine().store.db;
    const oc = ownerClause(parseOwnerScope(input.owner));
    const group = (col: string) =>
      Object.fromEntries(
        (db.prepare(`SELECT ${col} AS k, count(*) AS n FROM memories WHERE ${oc.sql} GROUP BY ${col} ORDER BY n DESC`).all(...oc.params) as {
          k: string | null;
          n: number;
        }[]).map((r) => [r.k ?? '(none)', r.n]),
      );
    const byOwnerExact = group('owner');
    const byOwner: Record<string, number> = {};
    for (const [o, n] of Object.entries(byOwnerExact)) {
      const k = o === '' ? '(unowned)' : roleOf(o);
      byOwner[k] = (byOwner[k] ?? 0) + n;
    }
    const total = Object.values(group('type')).reduce((a, b) => a + b, 0);
    const archived = (db.prepare(`SELECT count(*) AS n FROM memories WHERE archived = 1 AND ${oc.sql}`).get(...oc.params) as { n: number }).n;
    const edgesByType = Object.fromEntries(
      (db.prepare('SELECT type AS k, count(*) AS n FROM memory_edges GROUP BY type ORDER BY n DESC').all() as { k: string; n: number }[]).map((r) => [r.k, r.n]),
    );
    return {
      total,
      live: total - archived,
      archived,
      by_type: group('type'),
      by_owner: byOwner,
      by_status: group('status'),
      edges: Object.values(edgesByType).reduce((a, b) => a + b, 0),
      edges_by_type: edgesByType,
      access_events: countEvents(db),
    };
  },
};
