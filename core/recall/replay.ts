/**
 * Replay: re-run a logged recall against the store as it is now and show how each component of
 * the logged memory moved (score, rank, source, cos, rel, rec, imp, spread). mnemo records the
 * recall's hops, scope, k and profile with each access; for accesses logged by nooa (or
 * backfilled from rings) they are inferred and the answer says which ones were assumed.
 *
 * As of then, the engine given is on the store as it stood just before the access was logged
 * (time travel, Engine.openAsOf) and the ranking's clock is the access's own, so a recall whose
 * inputs were all logged reproduces its logged ranking, whatever changed since.
 */
import type { EngineReader } from '../engine/engine.js';
import { badInput, notFound } from '../errors.js';
import type { AccessEventView } from '../model/access-event.js';
import { eventView } from '../engine/event-view.js';
import { explainRows, rankRequest } from './explain.js';
import { resolveRequest } from './request.js';
import { pyRound } from '../model/py-round.js';
import { roundTerms, rowTerms, termsDelta } from './terms.js';
import type { ComponentSnapshot, RecallProfileName, ReplayResult } from './types.js';
import { knownProfileNames } from './saved-profiles.js';
import type { StoreAsOf } from '../model/history.js';
import { credentialRefs } from '../store/queries/credentials.js';

export interface ReplayOverrides {
  hops?: number | undefined;
  owner?: string | null | undefined;
  k?: number | undefined;
  profile?: string | undefined;
}

/** How long before its logged time an access is replayed as of then: the feed's precision, so the access's own changes are not in yet. */
export const BEFORE_ACCESS_S = 0.001;

/** Re-runs against the store as it stood at `asOf`, at the clock `now` (replay as of then). */
export interface ReplayAsOf {
  asOf: StoreAsOf;
  now: number;
}

function loggedEvent(engine: EngineReader, eventId: number) {
  const found = engine.store.queries.auditEvents({ eventIds: [eventId], limit: 1 });
  if (!found) throw notFound(`this store has no access-event table yet, so there is no event ${eventId}; recall something first`, { event_id: eventId });
  const raw = found.events[0];
  if (!raw) throw notFound(`no access event with id ${eventId}; the Access audit view and the "access.list" method list the events`, { event_id: eventId });
  return raw;
}

/** When the access was logged (epoch seconds, the logging process's clock). */
export function loggedAccessTime(engine: EngineReader, eventId: number): number {
  return loggedEvent(engine, eventId).ts;
}

export function replay(engine: EngineReader, eventId: number, overrides: ReplayOverrides = {}, then: ReplayAsOf | null = null): ReplayResult {
  const raw = loggedEvent(engine, eventId);
  const credentials = credentialRefs(engine.store);
  const event = eventView(raw, credentials);
  if (event.query === null) {
    throw badInput(`event ${eventId} (${event.channel}) carries no query; only recalled, searched or injected accesses can be replayed`, { event_id: eventId });
  }
  const siblings = (engine.store.queries.auditEvents({ ts: event.ts, channels: [event.channel], limit: 1000, order: 'asc' })?.events ?? [])
    .map((e) => eventView(e, credentials))
    .filter((s) => s.query === event.query && s.reader_owner === event.reader_owner && s.session_ref === event.session_ref)
    .sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
  const ctx = event.context ?? {};
  const assumed: string[] = [];
  const pick = <T>(name: string, override: T | undefined, logged: T | undefined, fallback: T, why: string): T => {
    if (override !== undefined) return override;
    if (logged !== undefined) return logged;
    assumed.push(`${name} = ${JSON.stringify(fallback)} (${why})`);
    return fallback;
  };
  // A logged saved profile may since have been deleted: the store's profile stands in, and says so.
  const logged = typeof ctx.profile === 'string' ? (ctx.profile as RecallProfileName) : undefined;
  const profile = logged !== undefined && knownProfileNames(engine.store).includes(logged) ? logged : undefined;
  if (logged !== undefined && profile === undefined) assumed.push(`profile ${JSON.stringify(logged)} no longer exists`);
  const req = resolveRequest(
    engine,
    {
      query: event.query,
      hops: pick('hops', overrides.hops, ctx.hops, event.channel === 'searched' ? 0 : 1, event.channel === 'searched' ? 'search runs without spread' : 'the default hops'),
      owner: pick('owner', overrides.owner, ctx.owner, null, 'not logged; no filter'),
      k: pick('k', overrides.k, ctx.k, Math.max(siblings.length, (event.rank ?? 0) + 1, 1), 'the number of memories that recall logged'),
      profile: pick('profile', overrides.profile, profile, engine.profile(), "the store's profile"),
    },
    { k: 10 },
  );
  const ranking = rankRequest(engine, req, then ? { now: then.now } : {});
  const idx = ranking.rows.findIndex((r) => r.id === event.memory_id);
  const row = idx >= 0 ? ranking.rows[idx]! : null;
  const before = snapshotOf(event);
  const after: ComponentSnapshot | null = row
    ? { rank: idx, score: pyRound(row.activation), source: row.source, cos: pyRound(row.cos), rel: pyRound(row.rel), rec: pyRound(row.rec), imp: pyRound(row.imp), spread: pyRound(row.spread) }
    : null;
  const notes: string[] = [];
  if (event.memory_owner === null) notes.push('the memory no longer exists');
  else if (!row) notes.push('the memory is no longer ranked by this query (archived, out of scope, or no leg reaches it)');
  if (row && event.components && row.source !== event.components.source) notes.push(`it was found by ${event.components.source}, now by ${row.source}`);
  const afterTerms = row ? roundTerms(rowTerms(row, req.profile)) : null;
  return {
    event,
    rerun: { query: req.query, hops: req.hops, owner: req.owner, k: req.k, profile: req.profile.name, now: ranking.now, assumed },
    before,
    after,
    delta: deltaOf(before, after),
    in_top_k_now: idx >= 0 && idx < req.k,
    as_of: then?.asOf ?? null,
    reproduces_logged_ranking: reproduces(siblings, ranking.rows),
    ranked_now: ranking.rows.length,
    movement: movementText(event.rank, idx >= 0 ? idx : null, ranking.rows.length, req.k),
    terms: { before: event.terms, after: afterTerms, delta: termsDelta(event.terms, afterTerms) },
    logged_results: siblings.map((s) => ({ memory_id: s.memory_id, head: s.head, memory_type: s.memory_type, rank: s.rank, score: s.score, event_id: s.event_id })),
    now_rows: explainRows(engine, ranking, req.k),
    notes,
  };
}

/** Whether every logged result of the recall is at its logged rank in the re-run (null: no ranks were logged). */
function reproduces(logged: readonly { memory_id: string; rank: number | null }[], rows: readonly { id: string }[]): boolean | null {
  const ranked = logged.filter((s) => s.rank !== null);
  if (ranked.length === 0) return null;
  return ranked.every((s) => rows[s.rank!]?.id === s.memory_id);
}

/** Ranks as people read them (1-based); `then` and `now` are 0-based as stored. */
export function movementText(then: number | null, now: number | null, ranked: number, k: number): string {
  const was = then === null ? 'rank not logged' : `was #${then + 1}`;
  if (now === null) return `${was}, no longer ranked (${ranked} ranked now)`;
  const where = `now #${now + 1} of ${ranked}`;
  return now < k ? `${was}, ${where}: still in the top ${k}` : `${was}, ${where}: no longer in the top ${k}`;
}

function snapshotOf(e: AccessEventView): ComponentSnapshot {
  const c = e.components;
  return { rank: e.rank, score: e.score, source: c?.source ?? null, cos: c?.cos ?? null, rel: c?.rel ?? null, rec: c?.rec ?? null, imp: c?.imp ?? null, spread: c?.spread ?? null };
}

function deltaOf(before: ComponentSnapshot, after: ComponentSnapshot | null): ReplayResult['delta'] {
  const d = (k: keyof ComponentSnapshot): number | null => {
    const a = after?.[k];
    const b = before[k];
    return typeof a === 'number' && typeof b === 'number' ? pyRound(a - b) : null;
  };
  return { rank: d('rank'), score: d('score'), source: null, cos: d('cos'), rel: d('rel'), rec: d('rec'), imp: d('imp'), spread: d('spread') };
}
