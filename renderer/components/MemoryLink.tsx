/**
 * A memory named in a list: its type dot and head (title, or the content's first line), linking to
 * its detail; the 32-hex id only in the tooltip. A memory that is gone has no head, so only then
 * does its short id show.
 */
import { memoryHref } from '../state/router.js';

export function MemoryLink({ id, head, type }: { id: string; head: string | null | undefined; type?: string | null | undefined }) {
  if (head === null || head === undefined) {
    return (
      <span className="muted" title={id} data-memory-id={id}>
        {id.slice(0, 8)} (no longer in the store)
      </span>
    );
  }
  return (
    <a href={memoryHref(id)} title={id} data-memory-id={id}>
      {type ? <span className={`type-dot t-${type}`} /> : null} {head || '(empty memory)'}
    </a>
  );
}
