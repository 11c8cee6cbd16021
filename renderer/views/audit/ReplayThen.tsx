/**
 * Replay as of then: re-runs a logged recall against the store as it was when it was logged (time
 * travel over the change feed) and says whether that reproduces the logged ranking, beside the
 * replay against the store as it is now. When both agree with the log, nothing that mattered has
 * changed; when only "then" does, what changed since explains the move.
 */
import type { ReplayResult } from '../../../core/api/contract/index.js';
import { useReplayThen } from '../../api/time-travel.js';
import { fmtInstant } from '../../state/instant.js';
import { useState } from 'react';
import { InstantError } from '../../components/time/InstantError.js';
import { Loading } from '../../components/common.js';
import { buildHash } from '../../state/router.js';

/** "reproduces the logged ranking" in words, for either replay. */
export function Verdict({ r, against, testId }: { r: ReplayResult; against: string; testId: string }) {
  const v = r.reproduces_logged_ranking;
  return (
    <p className={`replay-verdict ${v === null ? '' : v ? 'same' : 'moved'}`} data-testid={testId} data-reproduces={v === null ? '' : String(v)}>
      <strong>{against}:</strong>{' '}
      {v === null
        ? 'this access logged no ranks, so there is no ranking to compare.'
        : v
          ? 'reproduces the logged ranking (the same memories at the same ranks).'
          : `does not reproduce the logged ranking: ${r.movement}.`}
    </p>
  );
}

export function ReplayThen({ eventId, loggedAt }: { eventId: number; loggedAt: number }) {
  const [asked, setAsked] = useState(false);
  const q = useReplayThen(eventId, asked);
  if (!asked) {
    return (
      <button type="button" onClick={() => setAsked(true)} data-testid="replay-then" title="Re-run the logged recall against the store as it was when the access was logged">
        Replay as of then ({fmtInstant(Math.floor(loggedAt))})
      </button>
    );
  }
  if (q.error) return <InstantError error={q.error} at={Math.floor(loggedAt)} />;
  if (!q.data) return <Loading label="Replaying as of then…" />;
  const asOf = q.data.as_of;
  return (
    <div data-testid="replay-then-result">
      <Verdict r={q.data} against={asOf ? `As of then (${fmtInstant(Math.floor(asOf.at))})` : 'As of then'} testId="replay-then-verdict" />
      {asOf ? (
        <p className="small muted">
          {asOf.rolled_back === 0 ? 'Nothing has changed since that access.' : null}{' '}
          <a href={`#${buildHash('history', 'diff', { from: Math.floor(asOf.at) })}`} data-testid="replay-then-diff">
            What changed since then
          </a>
        </p>
      ) : null}
    </div>
  );
}
