/** The figures of the mcp-load benchmark: per-op latency summaries and the errors behind them. */
import type { CallRecord, LoadOp } from './mcp-load-client.js';

export interface LatencySummary {
  calls: number;
  errors: number;
  p50_ms: number | null;
  p95_ms: number | null;
  max_ms: number | null;
}

/** The value at quantile q (nearest rank), or null for no values. */
function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const round = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);

/** Latencies of the successful calls; errors counted apart (a fast refusal must not flatter p95). */
export function summarise(calls: readonly CallRecord[]): LatencySummary {
  const ms = calls.filter((c) => c.ok).map((c) => c.ms).sort((a, b) => a - b);
  return { calls: calls.length, errors: calls.filter((c) => !c.ok).length, p50_ms: round(quantile(ms, 0.5)), p95_ms: round(quantile(ms, 0.95)), max_ms: round(quantile(ms, 1)) };
}

export function byOp(calls: readonly CallRecord[]): Record<Exclude<LoadOp, 'reflect'> | 'all', LatencySummary> {
  return { remember: summarise(calls.filter((c) => c.op === 'remember')), recall: summarise(calls.filter((c) => c.op === 'recall')), all: summarise(calls) };
}

/** The first few distinct error messages, so a failed run says why without a flood of repeats. */
export function firstErrors(calls: readonly CallRecord[], n = 3): string[] {
  return [...new Set(calls.filter((c) => !c.ok).map((c) => `${c.op}: ${c.error ?? 'failed'}`))].slice(0, n);
}

/** p95 with the flood over p95 without it; null when either is missing. */
export function ratio(withFlood: LatencySummary, without: LatencySummary): number | null {
  if (withFlood.p95_ms === null || !without.p95_ms) return null;
  return Math.round((withFlood.p95_ms / without.p95_ms) * 100) / 100;
}
