/** A memory named inside a plan item: type dot, head, link to its detail (heads come batched from the view). */
import { createContext, useContext } from 'react';
import { memoryHref } from '../../state/router.js';

export type Heads = Map<string, { head: string; type: string; owner: string; archived: boolean }>;

export const HeadsContext = createContext<Heads | undefined>(undefined);

export function MemoryRef({ id, proposed }: { id: string; proposed?: { title: string | null; content: string; type: string } | undefined }) {
  const heads = useContext(HeadsContext);
  const h = heads?.get(id);
  if (proposed) {
    return (
      <span className="mref proposed" title={`proposed memory ${id}`}>
        <span className={`type-dot t-${proposed.type}`} /> {proposed.title ?? proposed.content.slice(0, 100)} <span className="badge">new</span>
      </span>
    );
  }
  return (
    <a className={`mref${h?.archived ? ' archived' : ''}`} href={memoryHref(id)} title={id} data-memory-id={id}>
      <span className={`type-dot t-${h?.type ?? 'info'}`} /> {h ? h.head : <span className="mono">{id.slice(0, 10)}</span>}
    </a>
  );
}
