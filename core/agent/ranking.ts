/**
 * How an agent's reads reach the recall pipeline. Normally through the service contract
 * (`recall.run`, `recall.search`, `recall.explain`) with the agent as the session's reader, so the
 * recall module does the logging. One scope cannot be said through that contract: the unowned
 * writer's own scope, `""` (unowned memories only, the reference's `role_of("")`), because a
 * user-facing empty scope is rightly an error there. For that scope the pipeline is called
 * directly with the already-resolved scope, and the accesses are logged here in the same shape.
 */
import type { AgentSession } from './session.js';
import type { ExplainResult } from '../recall/types.js';
import { explainResult, rankRequest } from '../recall/explain.js';
import { resolveRequest } from '../recall/request.js';
import { clipQuery } from '../recall/record.js';
import { currentTraceRef } from '../otel.js';
import { accessRecord } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';

export type ReadMode = 'recalled' | 'searched' | 'dry_run';

export interface RankInput {
  query: string;
  k?: number | undefined;
  hops?: number | undefined;
  include_superseded?: boolean | undefined;
}

export async function rankForAgent(session: AgentSession, scope: OwnerScope, mode: ReadMode, input: RankInput): Promise<ExplainResult> {
  const body: Record<string, unknown> = { query: input.query };
  if (input.k !== undefined) body['k'] = input.k;
  if (input.hops !== undefined && mode !== 'searched') body['hops'] = input.hops;
  if (input.include_superseded) body['include_superseded'] = true;
  if (scope !== '') {
    body['owner'] = scope === null ? '*' : scope;
    const method = mode === 'recalled' ? 'recall.run' : mode === 'searched' ? 'recall.search' : 'recall.explain';
    return session.recall(method, body);
  }
  const engine = session.engine();
  const resolved = resolveRequest(engine, { ...input, hops: mode === 'searched' ? 0 : input.hops }, { k: mode === 'dry_run' ? 10 : 5 });
  const req = { ...resolved, owner: '' };
  const result = explainResult(engine, req, rankRequest(engine, req));
  if (mode !== 'dry_run') {
    const traceRef = currentTraceRef();
    const query = clipQuery(req.query);
    const context = { hops: req.hops, owner: '', k: req.k, profile: req.profile.name };
    engine.store.logAccesses(
      result.rows.map((row) => ({
        id: row.id,
        record: accessRecord(result.now, mode, {
          reader_owner: session.reader.owner,
          session_ref: session.reader.session_ref,
          trace_ref: traceRef,
          query,
          score: row.score,
          rank: row.rank,
          components: { source: row.source, cos: row.cos, rel: row.rel, rec: row.rec, imp: row.imp, spread: row.spread },
        }),
        context,
      })),
    );
  }
  return result;
}
