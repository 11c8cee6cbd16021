/**
 * The time control above Memories, Graph, a memory and Recall: "as of …" when live; when an
 * instant is set, a banner that names it and says the view is read-only, with the live store one
 * click away. The instant lives in the URL (`?at=`), so a link shares it.
 */
import { plural } from '../../api/errors.js';
import { useViewInstant } from '../../api/time-travel.js';
import { platform } from '../../platform/browser.js';
import { agoLabel, fmtInstant, hashWithInstant } from '../../state/instant.js';
import { buildHash, navigate, useRoute } from '../../state/router.js';
import { InstantError } from './InstantError.js';
import { InstantPicker } from './InstantPicker.js';
import './time-control.css';

function PastSummary({ at, rolledBack, live }: { at: number; rolledBack: number | undefined; live: boolean | undefined }) {
  return (
    <span className="time-summary">
      <strong data-testid="time-banner-instant">As of {fmtInstant(at)}</strong> <span className="muted">({agoLabel(at, platform.epochSeconds())})</span> ·{' '}
      <span className="badge">read-only</span>
      {rolledBack === undefined ? null : live ? (
        <span> · nothing has changed since: this is also the store as it is now</span>
      ) : (
        <span data-testid="time-hidden-changes"> · {plural(rolledBack, 'later change')} not shown</span>
      )}
    </span>
  );
}

export function TimeControl() {
  const route = useRoute();
  const { at, urlError, asOf } = useViewInstant();
  const pick = (next: number | null) => navigate(hashWithInstant(route.hash, next));
  return (
    <section className={`time-control${at === null ? '' : ' past'}`} aria-label="Time travel" data-testid="time-control" data-at={at ?? ''}>
      {at !== null ? (
        <div className="time-banner" role="status" data-testid="time-banner">
          <PastSummary at={at} rolledBack={asOf.data?.rolled_back} live={asOf.data?.live} />
          <button type="button" className="primary" onClick={() => pick(null)} data-testid="back-to-live">
            Back to live
          </button>
          <a href={`#${buildHash('history', 'diff', { from: at })}`} data-testid="time-diff-link">
            What changed since
          </a>
        </div>
      ) : null}
      <InstantPicker at={at} onPick={pick} />
      {urlError ? (
        <div className="error" role="alert" data-testid="url-param-error">
          {urlError}
        </div>
      ) : null}
      {at !== null && asOf.error ? <InstantError error={asOf.error} at={at} onPick={pick} /> : null}
    </section>
  );
}
