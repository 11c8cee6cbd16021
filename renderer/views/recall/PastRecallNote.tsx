/**
 * The Recall console while an instant is set. Recall ranks the live store only (the time-travel API
 * offers no recall as of an instant), so instead of live results that would pass for the past, it
 * says so and points to what can answer "why did this surface then?": replaying a logged access
 * of the query, as of then, in the Audit view.
 */
import { fmtInstant } from '../../state/instant.js';
import { buildHash } from '../../state/router.js';

export function PastRecallNote({ at, query }: { at: number; query: string }) {
  const audit = `#${buildHash('audit', null, { q: query.trim() || null })}`;
  return (
    <section className="panel" data-testid="recall-past-note">
      <h3>Recall runs on the live store only</h3>
      <p>
        A new query cannot be ranked against the store as it was at {fmtInstant(at)}. To see why a memory surfaced then, open one of the accesses logged for this query in
        the Audit view and press “Replay as of then”: it re-runs the logged recall against the store as it was at that access and says whether it reproduces the logged
        ranking.
      </p>
      <p>
        <a className="button" href={audit} data-testid="recall-past-audit">
          {query.trim() ? `Accesses logged for “${query.trim()}”` : 'Logged accesses'} in Audit
        </a>
      </p>
    </section>
  );
}
