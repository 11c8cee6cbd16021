/** "Why not in my last query?": opens the Recall console on the last query with this memory in the why-not panel. */
import { recallHash, useLastRecall } from '../../state/last-recall.js';

export function WhyNotLink({ id, className }: { id: string; className?: string }) {
  const last = useLastRecall((s) => s.last);
  if (!last) return null;
  return (
    <a className={className} href={`#${recallHash(last, { why: id })}`} data-testid="why-not-link" title={`Why is this memory not (higher) in the results for “${last.q}”?`} onClick={(e) => e.stopPropagation()}>
      why not in my last query?
    </a>
  );
}
