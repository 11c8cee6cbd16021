/**
 * nooa's `per_memory_usage`: counters (uncapped), the last ring entry, mean rank and score over
 * ring entries that carry them, whether the latest injection went unused, and the forgetting
 * figures. Field names, order and rounding are the reference's.
 */
import { DEFAULT_FORGET_POLICY, pruneEta, retention, type ForgetPolicy } from '../model/forget-policy.js';
import type { AccessRecord } from '../model/memory.js';
import { pyRound } from '../model/py-round.js';
import type { MemoryUsage } from './types.js';
import type { UsageRecord } from '../store/port/port.js';

const USE_CHANNELS = new Set(['recalled', 'searched', 'deref']);

export function fetchesOf(m: Pick<UsageRecord, 'recalled_count' | 'searched_count' | 'injected_count' | 'deref_count'>): number {
  return m.recalled_count + m.searched_count + m.injected_count + m.deref_count;
}

/**
 * True only when an `injected` entry survives in the ring and no recalled/searched/deref entry
 * at or after it follows; null ("unknown") when no injected entry survives.
 */
export function injectedUnused(log: readonly AccessRecord[]): boolean | null {
  let lastInjected: number | null = null;
  for (const e of log) if (e.channel === 'injected' && (lastInjected === null || e.ts > lastInjected)) lastInjected = e.ts;
  if (lastInjected === null) return null;
  const t = lastInjected;
  return !log.some((e) => USE_CHANNELS.has(e.channel) && e.ts >= t);
}

/**
 * Whether some surviving `injected` entry was followed (at or after it) by a recalled/searched/
 * deref entry; null when no injected entry survives in the ring.
 */
export function injectionFollowedByUse(log: readonly AccessRecord[]): boolean | null {
  let firstInjected: number | null = null;
  for (const e of log) if (e.channel === 'injected' && (firstInjected === null || e.ts < firstInjected)) firstInjected = e.ts;
  if (firstInjected === null) return null;
  const t = firstInjected;
  return log.some((e) => USE_CHANNELS.has(e.channel) && e.ts >= t);
}

export function perMemoryUsage(m: UsageRecord, now: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): MemoryUsage {
  const last = m.access_log.length ? m.access_log[m.access_log.length - 1]! : null;
  const ranks = m.access_log.filter((e) => e.rank !== null).map((e) => e.rank!);
  const scores = m.access_log.filter((e) => e.score !== null).map((e) => e.score!);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    id: m.id,
    fetches: fetchesOf(m),
    recalled: m.recalled_count,
    searched: m.searched_count,
    injected: m.injected_count,
    reinforced: m.reinforced_count,
    deref: m.deref_count,
    last_channel: last?.channel ?? null,
    last_ts: last?.ts ?? null,
    last_session_ref: last?.session_ref ?? null,
    last_trace_ref: last?.trace_ref ?? null,
    mean_rank: ranks.length ? pyRound(mean(ranks), 2) : null,
    mean_score: scores.length ? pyRound(mean(scores), 4) : null,
    injected_never_used: injectedUnused(m.access_log) === true,
    retention: pyRound(retention(m, now, policy), 4),
    prune_eta: pruneEta(m, policy),
    strength: m.strength,
    reinforcement_count: m.reinforcement_count,
  };
}
