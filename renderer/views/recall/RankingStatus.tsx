/**
 * What the Recall console shows while a ranking is on the way: "Ranking…", or, when the engine is
 * first building an index the ranking needs (a store opened without current snapshots), which index,
 * over how many memories, and how far it is, polled from `recall.indexBuild`. "Stop waiting" lets
 * go of the answer; the engine finishes the build anyway (the next recall needs it), so the next
 * query is quick.
 */
import { useQuery } from '@tanstack/react-query';
import type { IndexBuildState } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { Spinner, useDelayed } from '../../components/common.js';
import { etaText } from '../../components/job-words.js';

/** How often the build's progress is asked for while a ranking is pending. */
const POLL_MS = 250;

export function RankingStatus({ pending, at, onStopWaiting }: { pending: boolean; at: number | null; onStopWaiting: () => void }) {
  const progress = useQuery({
    queryKey: [...keys.all, 'recall', 'index-build', at],
    queryFn: () => call('recall.indexBuild', at !== null ? { at } : {}),
    enabled: pending,
    refetchInterval: pending ? POLL_MS : false,
    staleTime: 0,
  });
  const shown = useDelayed(pending, 800);
  const building = pending ? progress.data?.building : null;
  if (building) return <BuildProgress building={building} onStopWaiting={onStopWaiting} />;
  return shown ? <Spinner label="Ranking…" /> : null;
}

/** An index build as a line, a bar and (when the caller may stop waiting) a button; also the Conflicts view's. */
export function BuildProgress({ building, onStopWaiting, testId = 'index-build' }: { building: NonNullable<IndexBuildState['building']>; onStopWaiting?: () => void; testId?: string }) {
  const percent = building.total > 0 ? Math.floor((100 * building.done) / building.total) : 0;
  return (
    <div className="spinner index-build" role="status" aria-live="polite" aria-busy="true" data-testid={testId} data-index={building.index}>
      <span>
        Building the {building.label} over {building.memories.toLocaleString('en-US')} memories… {percent} %{building.eta_s != null ? ` · ${etaText(building.eta_s)}` : ''}
      </span>
      <progress max={100} value={percent} aria-label={`${building.label} build`} />
      {onStopWaiting ? (
        <button type="button" onClick={onStopWaiting} title="The build goes on in the background; the next query is quick" data-testid="index-build-stop">
          Stop waiting
        </button>
      ) : null}
    </div>
  );
}
