/**
 * Why an instant cannot be shown, in words: before the history's start it names the earliest
 * instant that can be (and offers it); a store without history says so; anything else is the
 * engine's error as a sentence.
 */
import { ApiError } from '../../api/client.js';
import { fmtInstant } from '../../state/instant.js';
import { ErrorBox } from '../common.js';

/** `onPick` offers the earliest instant instead; without it (a replay, which cannot move its instant) only the words. */
export function InstantError({ error, at, onPick }: { error: unknown; at: number; onPick?: (at: number) => void }) {
  const details = error instanceof ApiError ? error.details : null;
  const earliest = typeof details?.['earliest'] === 'number' ? details['earliest'] : null;
  if (details?.['reason'] === 'before_history' && earliest !== null) {
    const first = Math.ceil(earliest);
    return (
      <div className="error" role="alert" data-testid="instant-error" data-earliest={first}>
        <strong>That is before this store's history.</strong> Its history starts at {fmtInstant(first)}; {fmtInstant(at)} is earlier, so the store cannot be shown as it was then.{' '}
        {onPick ? (
          <button type="button" onClick={() => onPick(first)} data-testid="instant-earliest">
            Show {fmtInstant(first)}
          </button>
        ) : null}
      </div>
    );
  }
  if (details?.['reason'] === 'no_history') {
    return (
      <div className="error" role="alert" data-testid="instant-error">
        <strong>No history yet.</strong> Mnemo starts recording this store's changes the first time it opens it writable; from then on it can show the store as it was at any instant.
      </div>
    );
  }
  return <ErrorBox error={error} />;
}
