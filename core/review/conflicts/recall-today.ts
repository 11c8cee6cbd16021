/**
 * What recall returns today for a conflict: a dry run (nothing logged) of the store's default
 * recall for the words the two memories share, and where each of them lands. A superseded memory
 * the profile leaves out is named as such, with the place it would have had.
 */
import type { EngineReader } from '../../engine/engine.js';
import { explainResult, rankRequest } from '../../recall/explain.js';
import { resolveRequest } from '../../recall/request.js';

export interface RecallToday {
  query: string;
  k: number;
  /** The profile's policy for superseded memories. */
  superseded: 'exclude' | 'demote' | 'include';
  /** Each memory asked about: its 1-based place in the top k, or null, and whether the policy left it out. */
  places: { id: string; rank: number | null; left_out: boolean }[];
  /** The memory recall puts first among those asked about (null: neither is in the top k). */
  first: string | null;
  /** The top k, ids and heads. */
  top: { id: string; head: string; superseded_by: string | null }[];
}

export function recallToday(engine: EngineReader, input: { query: string; ids: readonly string[]; owner?: string | null | undefined; k?: number | undefined }): RecallToday {
  return engine.store.readFresh(() => {
    const req = resolveRequest(engine, { query: input.query, owner: input.owner, k: input.k }, { k: 10 });
    const ranking = rankRequest(engine, req);
    const res = explainResult(engine, req, ranking);
    const places = input.ids.map((id) => {
      const row = res.rows.find((r) => r.id === id);
      return { id, rank: row ? row.rank + 1 : null, left_out: ranking.excluded.some((e) => e.id === id && e.rank < req.k) };
    });
    const first = [...places].filter((p) => p.rank !== null).sort((a, b) => a.rank! - b.rank!)[0]?.id ?? null;
    return {
      query: req.query,
      k: req.k,
      superseded: ranking.supersededPolicy,
      places,
      first,
      top: res.rows.map((r) => ({ id: r.id, head: r.head, superseded_by: r.superseded_by ?? null })),
    };
  });
}
