/**
 * The forgetting curve of one memory, for the workbench's retention chart: R(t) from creation to
 * now + 90 days, the strength steps that reset and flatten it, the prune threshold and ETA, and
 * a marker for every access known (ring entries and the uncapped event table, merged).
 *
 * Past strength is reconstructed backwards from the current strength: each touching access that
 * bumped strength added 1; where the event table logged the strength after an access, that
 * value is used as is (`exact`). A store written with bumps the log does not show (merges,
 * writes without a log entry) can therefore show approximate early steps.
 */
import type { EngineReader } from '../engine/engine.js';
import { TOUCHING_CHANNELS, type AccessChannel } from '../model/enums.js';
import { memoryHead } from '../model/memory.js';
import { tallyAccesses } from './access-tally.js';
import { DEFAULT_FORGET_POLICY, pruneDecision, pruneEta, protectionReason, retention, stabilityHours, type ForgetPolicy } from './policy.js';
import type { CurveMarker, RetentionCurve } from './types.js';
import { requireMemory } from '../store/queries/memory-lookups.js';

const DAY = 86_400;

export function retentionCurve(engine: EngineReader, idOrPrefix: string, opts: { until?: number; samples?: number; policy?: ForgetPolicy } = {}): RetentionCurve {
  const policy = opts.policy ?? DEFAULT_FORGET_POLICY;
  const m = requireMemory(engine.store, idOrPrefix);
  const now = engine.now();
  const until = Math.max(opts.until ?? now + 90 * DAY, m.created_at + 1);
  const markers = mergeMarkers(engine, m.id, m.access_log);

  // Strength after each access, walking back from the current strength.
  let cur = m.strength;
  for (let i = markers.length - 1; i >= 0; i--) {
    const mk = markers[i]!;
    const exact = mk.strength_after !== null;
    const after = exact ? mk.strength_after! : cur;
    mk.strength_after = after;
    (mk as CurveMarker & { exact?: boolean }).exact = exact;
    cur = mk.touching && mk.reinforce ? Math.max(after - 1, 0) : after;
  }
  const initial = cur;
  const steps = markers
    .filter((mk) => mk.touching && mk.ts <= m.last_accessed_at)
    .map((mk) => ({ t: mk.ts, strength: mk.strength_after!, channel: mk.channel, exact: (mk as CurveMarker & { exact?: boolean }).exact === true }));

  /** Last touching access at or before t and the strength then (the record itself is authoritative from last_accessed_at on). */
  const stateAt = (t: number): { last: number; strength: number } => {
    if (t >= m.last_accessed_at) return { last: m.last_accessed_at, strength: m.strength };
    let last = m.created_at;
    let strength = initial;
    for (const s of steps) {
      if (s.t > t) break;
      last = s.t;
      strength = s.strength;
    }
    return { last, strength };
  };
  const rAt = (t: number) => {
    const st = stateAt(t);
    return { t, r: retention({ strength: st.strength, last_accessed_at: st.last }, t, policy), strength: st.strength };
  };
  const n = opts.samples ?? 400;
  const times = new Set<number>();
  for (let i = 0; i < n; i++) times.add(m.created_at + ((until - m.created_at) * i) / (n - 1));
  for (const s of steps) {
    if (s.t > m.created_at) times.add(s.t - 1e-3);
    times.add(s.t);
  }
  times.add(now);
  const samples = [...times].filter((t) => t >= m.created_at && t <= until).sort((a, b) => a - b).map(rAt);

  const decision = pruneDecision(m, now, policy);
  return {
    id: m.id,
    head: memoryHead(m),
    type: m.type,
    owner: m.owner,
    archived: m.archived,
    created_at: m.created_at,
    now,
    until,
    threshold: policy.prune_activation_threshold,
    half_life_hours: policy.decay_half_life_hours,
    protected: protectionReason(m, policy) !== null,
    protection_reason: protectionReason(m, policy),
    should_prune: decision.prune,
    prune_reason: decision.reason,
    prune_eta: pruneEta(m, policy),
    retention_now: retention(m, now, policy),
    stability_hours_now: stabilityHours(m.strength, policy),
    samples,
    strength_steps: steps,
    markers: markers.map(({ reinforce: _r, ...rest }) => {
      const { exact: _e, ...marker } = rest as CurveMarker & { exact?: boolean };
      return marker;
    }),
    accesses: tallyAccesses(markers, m.access_count),
  };
}

type Working = CurveMarker & { reinforce: boolean };

/**
 * Ring entries and event rows for one memory, merged on (ts, channel), oldest first. Two accesses
 * of one channel in the same second (a frozen clock, a burst of recalls) are two events and two
 * ring entries: each ring entry pairs with one unpaired event, so neither is dropped nor doubled.
 */
function mergeMarkers(engine: EngineReader, id: string, ring: readonly import('../model/memory.js').AccessRecord[]): Working[] {
  const unpaired = new Map<string, Working[]>();
  const out: Working[] = [];
  const key = (ts: number, ch: string) => `${ts}|${ch}`;
  const events = engine.store.accessEvents({ memoryId: id, order: 'asc', limit: 1_000_000 }).events;
  for (const e of events) {
    const mk: Working = {
      ts: e.ts,
      channel: e.channel,
      touching: TOUCHING_CHANNELS.has(e.channel as AccessChannel),
      origin: 'events',
      event_id: e.event_id,
      reader_owner: e.reader_owner,
      session_ref: e.session_ref,
      query: e.query,
      score: e.score,
      rank: e.rank,
      components: e.components,
      strength_after: e.backfilled ? null : e.strength_after,
      reinforce: e.reinforce,
    };
    out.push(mk);
    const k = key(e.ts, e.channel);
    unpaired.set(k, [...(unpaired.get(k) ?? []), mk]);
  }
  for (const r of ring) {
    const hit = unpaired.get(key(r.ts, r.channel))?.shift();
    if (hit) {
      hit.origin = 'both';
      continue;
    }
    out.push({
      ts: r.ts,
      channel: r.channel,
      touching: TOUCHING_CHANNELS.has(r.channel),
      origin: 'ring',
      event_id: null,
      reader_owner: r.reader_owner,
      session_ref: r.session_ref,
      query: r.query,
      score: r.score,
      rank: r.rank,
      components: r.components,
      strength_after: null,
      reinforce: true,
    });
  }
  return out.sort((a, b) => a.ts - b.ts || (a.event_id ?? Infinity) - (b.event_id ?? Infinity));
}
