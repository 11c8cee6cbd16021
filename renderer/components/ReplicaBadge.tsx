/**
 * The read replicas of a PostgreSQL store opened with them (`--replica`), beside the store's name:
 * how many there are and the worst state, with each one's state and lag on hover. Nothing for a
 * store without replicas. Read again every few seconds: the lag moves on its own.
 */
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client.js';
import { bytes, replicaLine, type Replica } from './replica-lines.js';

const POLL_MS = 5_000;

const RANK: Record<Replica['state'], number> = { streaming: 0, not_standby: 1, behind: 2, down: 3 };

export function ReplicaBadge() {
  const q = useQuery({ queryKey: ['mnemo-replicas'], queryFn: () => call('store.replicas', {}), refetchInterval: POLL_MS, staleTime: POLL_MS });
  const replicas = q.data?.replicas ?? [];
  if (replicas.length === 0) return null;
  const worst = replicas.reduce((a, b) => (RANK[b.state] > RANK[a.state] ? b : a));
  const lagged = replicas.filter((r) => r.lag_bytes !== null).map((r) => r.lag_bytes!);
  const shown = worst.state === 'streaming' || worst.state === 'not_standby' ? (lagged.length ? `${bytes(Math.max(...lagged))} behind` : 'lag unknown') : worst.state;
  return (
    <span className={`store-badge replica-badge${worst.state === 'down' || worst.state === 'behind' ? ' warn' : ''}`} title={replicas.map(replicaLine).join('\n')} data-testid="replica-badge" data-state={worst.state}>
      · {replicas.length === 1 ? 'replica' : `${replicas.length} replicas`}: {shown}
    </span>
  );
}
