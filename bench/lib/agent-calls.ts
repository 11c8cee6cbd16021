/**
 * The agent process's calls (support/agent-child.ts) summed up per phase of a long write: how many,
 * how many failed and how many of those were the store refusing a lock ("database is locked",
 * SQLITE_BUSY), and the latency of the successful ones (p50, p95, max), so a phase is compared
 * with the quiet one before it.
 */
import type { AgentCall } from '../../support/long-writes.js';
import { percentile } from './stats.js';

export interface CallSummary {
  n: number;
  failures: number;
  /** Failures that were a lock refused: what a long write beside the agent must never cause. */
  locked_or_busy: number;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
  over_1s: number;
}

const LOCKED = /database is locked|SQLITE_BUSY|\bbusy\b/i;

export const isLockRefusal = (c: AgentCall): boolean => !c.ok && LOCKED.test(c.error ?? '');

/** Latencies of the successful calls; failures counted apart (a fast refusal must not flatter p95). */
export function summarizeCalls(calls: AgentCall[]): CallSummary {
  const ms = calls.filter((c) => c.ok).map((c) => c.ms);
  const round = (q: number) => (ms.length ? Math.round(percentile(ms, q)) : null);
  return {
    n: calls.length,
    failures: calls.filter((c) => !c.ok).length,
    locked_or_busy: calls.filter(isLockRefusal).length,
    p50_ms: round(0.5),
    p95_ms: round(0.95),
    max_ms: round(1),
    over_1s: ms.filter((m) => m > 1000).length,
  };
}

/** The agent's adds and recalls apart (a write waits on the lock, a recall does not), and both together. */
export function summarizePhase(calls: AgentCall[]): { all: CallSummary; add: CallSummary; recall: CallSummary } {
  return { all: summarizeCalls(calls), add: summarizeCalls(calls.filter((c) => c.op === 'add')), recall: summarizeCalls(calls.filter((c) => c.op === 'recall')) };
}

/** `during` over `before` (p50 or p95), two decimals; null when either is missing. */
export function ratio(during: number | null, before: number | null): number | null {
  return during === null || before === null || before === 0 ? null : Number((during / before).toFixed(2));
}
