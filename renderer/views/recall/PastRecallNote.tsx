/**
 * The Recall console while an instant is set: Explain ranks the store as it was then (at that
 * instant's clock, so recency reads as it did), and a logged recall, which writes to the live store,
 * waits for "Back to live". For "why did this surface then?" about a recall an agent really made,
 * the Audit view replays that logged access as of then and says whether it reproduces its ranking.
 */
import { fmtInstant } from '../../state/instant.js';
import { buildHash } from '../../state/router.js';

export function PastRecallNote({ at, query }: { at: number; query: string }) {
  const audit = `#${buildHash('audit', null, { q: query.trim() || null })}`;
  return (
    <section className="panel" data-testid="recall-past-note">
      <p>
        Ranked as the store was at {fmtInstant(at)}, with recency read at that instant. Nothing is logged; a logged recall runs on the live store only. To check a
        recall an agent made back then, replay its logged access as of then in the Audit view.{' '}
        <a href={audit} data-testid="recall-past-audit">
          {query.trim() ? `Accesses logged for “${query.trim()}”` : 'Logged accesses'} in Audit
        </a>
      </p>
    </section>
  );
}
