/** The words of the replica badge (ReplicaBadge.tsx): a replica's state and lag as store.replicas reports them. */
import type { OutputOf } from '../../core/api/contract/index.js';

export type Replica = OutputOf<'store.replicas'>['replicas'][number];

/** A byte count as people read it (the lag in the primary's log). */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** One replica as a line: its state and lag, and where its reads went (the seconds only when some: 0 s says nothing a byte count does not). */
export function replicaLine(r: Replica): string {
  const lag = r.lag_bytes === null ? 'lag unknown' : `${bytes(r.lag_bytes)} behind${r.lag_seconds !== null && r.lag_seconds > 0 && r.lag_bytes > 0 ? ` (${r.lag_seconds.toFixed(1)} s)` : ''}`;
  const state = r.state === 'down' ? `down${r.error ? `: ${r.error}` : ''}` : r.state === 'behind' ? `behind: reads go to the primary until it replays this session's writes (${lag})` : `${r.state.replace('_', ' ')}, ${lag}`;
  return `${r.url} — ${state}; ${r.served.toLocaleString()} reads served, ${r.fell_back.toLocaleString()} sent elsewhere`;
}
