/**
 * The time a person waited for a ranking (WaitedFor.tsx): measured around the call, and said with
 * what the engine spent it on (stats.built, stats.elapsed_ms).
 */
import type { RecallStats } from '../../../core/api/contract/index.js';

/** One decimal at most, as the console writes its other figures ("565.6", "12"). */
const oneDecimal = (v: number): string => Number(v.toFixed(1)).toString();

export type Waited<T> = T & { waited_ms: number };

/** Runs the call and notes how long its answer took to come (a monotonic timer). */
export async function waited<T>(ask: () => Promise<T>): Promise<Waited<T>> {
  const started = performance.now();
  const value = await ask();
  return { ...value, waited_ms: performance.now() - started };
}

/** "1.2 s", "565.6 ms". */
export function durationText(ms: number): string {
  return ms >= 1000 ? `${oneDecimal(ms / 1000)} s` : `${oneDecimal(ms)} ms`;
}

/** The line: the whole wait first, then its parts the engine names. */
export function waitedText(waitedMs: number, stats: Pick<RecallStats, 'elapsed_ms' | 'built'>): string {
  const parts = [...(stats.built ?? []).map((b) => `building the ${b.label} ${durationText(b.ms)}`), `ranking ${durationText(stats.elapsed_ms)}`];
  return `answered in ${durationText(waitedMs)}: ${parts.join(', ')}`;
}
