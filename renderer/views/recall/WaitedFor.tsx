/**
 * How long the person waited for a ranking, and for what: the time from asking to the answer in
 * the page (measured here, so it includes the request's way there and back and any wait behind
 * other work), with the index builds the engine did meanwhile named, and the ranking itself (the
 * engine's own figures, stats.built and stats.elapsed_ms). A first recall on a store opened
 * without current index snapshots says "answered in 16.6 s: building the keyword index 14.2 s,
 * ranking 565.6 ms", not "565.6 ms".
 */
import type { RecallStats } from '../../../core/api/contract/index.js';
import { waitedText } from './waited.js';

export function WaitedFor({ result }: { result: { waited_ms: number; stats: RecallStats } }) {
  return (
    <span data-testid="recall-waited" data-waited-ms={Math.round(result.waited_ms)} data-built={(result.stats.built ?? []).map((b) => b.index).join(',')} title="From asking to the answer on this page, and what the engine spent it on">
      {waitedText(result.waited_ms, result.stats)}
    </span>
  );
}
