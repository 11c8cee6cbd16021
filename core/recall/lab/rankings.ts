/**
 * One query ranked under one profile, as explain ranks it (same request, same pipeline, same
 * rounding), so the lab's side-by-side ranks equal `mnemo explain --json` under each profile.
 */
import type { EngineReader } from '../../engine/engine.js';
import { explainRows, rankRequest } from '../explain.js';
import type { RecallProfile } from '../profile.js';
import { resolveRequest } from '../request.js';
import type { LabQuery, LabRow } from './types.js';

/** How deep the lab ranks to find the other side's terms of a memory that left or entered the top k. */
export const depthFor = (k: number): number => Math.min(1000, Math.max(50, 5 * k));

export function labRanking(engine: EngineReader, q: LabQuery, profile: RecallProfile, depth: number): LabRow[] {
  const base = resolveRequest(engine, { query: q.query, k: depth, owner: q.owner, profile: 'nooa-0.0.9' }, { k: depth });
  const req = { ...base, profile, hops: profile.knobs.hops };
  return explainRows(engine, rankRequest(engine, req), depth).map((r) => ({ rank: r.rank, id: r.id, head: r.head, owner: r.owner, score: r.score, terms: r.terms }));
}
