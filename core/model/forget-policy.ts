/**
 * Ebbinghaus forgetting exactly as nooa v0.0.9's ForgettingEngine:
 *   S = half_life_hours · (1 + ln(1 + max(strength, 0)))          (stability, hours)
 *   R = exp(−Δt_hours / S),  Δt = max(now − last_accessed_at, 0)   (retention; 0 when S ≤ 0)
 * `decay_half_life_hours` is used as an e-folding constant, not a true half-life, as in nooa.
 */
import type { Memory } from './memory.js';

export interface ForgetPolicy {
  enabled: boolean;
  decay_half_life_hours: number;
  fetch_boost: number;
  prune_activation_threshold: number;
  prune_min_age_hours: number;
  archive_vs_delete: 'archive' | 'delete';
  protected_types: string[];
}

export const DEFAULT_FORGET_POLICY: Readonly<ForgetPolicy> = Object.freeze({
  enabled: true,
  decay_half_life_hours: 336.0,
  fetch_boost: 1.0,
  prune_activation_threshold: 0.02,
  prune_min_age_hours: 24.0,
  archive_vs_delete: 'archive',
  protected_types: ['skill'],
});

/** Importance at or above HIGH is never pruned; hard-coded in nooa, not configurable. */
export const PROTECTED_IMPORTANCE = 8.0;

type ForgetFields = Pick<Memory, 'type' | 'status' | 'importance' | 'strength' | 'last_accessed_at' | 'created_at' | 'archived'>;

export function stabilityHours(strength: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): number {
  return policy.decay_half_life_hours * (1 + Math.log(1 + Math.max(strength, 0)));
}

export function retention(m: Pick<Memory, 'strength' | 'last_accessed_at'>, now: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): number {
  const s = stabilityHours(m.strength, policy);
  if (s <= 0) return 0;
  const dtHours = Math.max(now - m.last_accessed_at, 0) / 3600;
  return Math.exp(-dtHours / s);
}

/** Why a memory is protected, or null: a protected type, an open todo, or importance ≥ 8. */
export function protectionReason(m: Pick<Memory, 'type' | 'status' | 'importance'>, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): string | null {
  if (policy.protected_types.includes(m.type)) return `type ${m.type} is protected`;
  if (m.type === 'todo' && m.status === 'open') return 'open todo';
  if (m.importance >= PROTECTED_IMPORTANCE) return `importance ${m.importance} ≥ ${PROTECTED_IMPORTANCE}`;
  return null;
}

export function isProtected(m: Pick<Memory, 'type' | 'status' | 'importance'>, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): boolean {
  return protectionReason(m, policy) !== null;
}

export interface PruneDecision {
  prune: boolean;
  retention: number;
  /** The guard that kept the memory, or the reason it goes. */
  reason: string;
}

export function pruneDecision(m: ForgetFields, now: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): PruneDecision {
  const r = retention(m, now, policy);
  if (!policy.enabled) return { prune: false, retention: r, reason: 'pruning is disabled' };
  if (m.archived) return { prune: false, retention: r, reason: 'already archived' };
  const prot = protectionReason(m, policy);
  if (prot) return { prune: false, retention: r, reason: prot };
  const ageHours = (now - m.created_at) / 3600;
  if (ageHours < policy.prune_min_age_hours) return { prune: false, retention: r, reason: `younger than ${policy.prune_min_age_hours} h` };
  if (r >= policy.prune_activation_threshold) return { prune: false, retention: r, reason: `retention ${r.toFixed(4)} ≥ ${policy.prune_activation_threshold}` };
  return { prune: true, retention: r, reason: `retention ${r.toFixed(4)} < ${policy.prune_activation_threshold}` };
}

export function shouldPrune(m: ForgetFields, now: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): boolean {
  return pruneDecision(m, now, policy).prune;
}

/**
 * When retention will cross the prune threshold: last_accessed_at + S·3600·ln(1/threshold).
 * Null when protected, when pruning is disabled, or when the threshold is outside (0, 1).
 * Like nooa, it ignores the minimum-age guard.
 */
export function pruneEta(m: Pick<Memory, 'type' | 'status' | 'importance' | 'strength' | 'last_accessed_at'>, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): number | null {
  if (!policy.enabled || isProtected(m, policy)) return null;
  const t = policy.prune_activation_threshold;
  if (!(t > 0 && t < 1)) return null;
  return m.last_accessed_at + stabilityHours(m.strength, policy) * 3600 * Math.log(1 / t);
}
