/** Add a typed edge from this memory to another one found by text or id (one undoable change). */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client.js';
import { useLink } from '../../api/curation.js';
import { keys } from '../../api/keys.js';
import { ErrorBox } from '../../components/common.js';
import { fieldErrors } from './field-errors.js';

export const EDGE_TYPES = ['related', 'supports', 'contradicts', 'refines', 'derived_from', 'causes', 'precedes', 'part_of', 'triggers', 'created_by'] as const;

export function useMemorySearch(text: string) {
  const t = text.trim();
  return useQuery({ queryKey: [...keys.all, 'pick', t], queryFn: () => call('memory.list', { text: t, limit: 8, archived: 'all' }), enabled: t.length >= 2 });
}

export function LinkForm({ src, onDone }: { src: string; onDone?: () => void }) {
  const [text, setText] = useState('');
  const [dst, setDst] = useState<{ id: string; head: string } | null>(null);
  const [type, setType] = useState<string>('related');
  const [weight, setWeight] = useState('1');
  const search = useMemorySearch(dst ? '' : text);
  const link = useLink();
  const errs = fieldErrors(link.error, '');
  const w = Number(weight);
  return (
    <div className="link-form" data-testid="link-form">
      <div className="row">
        {dst ? (
          <span className="picked">
            → {dst.head}{' '}
            <button className="link" onClick={() => setDst(null)}>
              change
            </button>
          </span>
        ) : (
          <input value={text} onChange={(e) => setText(e.target.value)} placeholder="find the target: words or an id" data-testid="link-target" className="grow" />
        )}
        <select value={type} onChange={(e) => setType(e.target.value)} data-testid="link-type">
          {EDGE_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <label>
          weight <input className="num" value={weight} onChange={(e) => setWeight(e.target.value)} aria-invalid={!(w >= 0 && w <= 1)} />
        </label>
        <button
          className="primary"
          disabled={!dst || !(w >= 0 && w <= 1) || link.isPending}
          onClick={() => link.mutate({ src, dst: dst!.id, type: type as (typeof EDGE_TYPES)[number], weight: w }, { onSuccess: () => (setDst(null), setText(''), onDone?.()) })}
          data-testid="link-add"
        >
          Link
        </button>
      </div>
      {!(w >= 0 && w <= 1) ? <div className="field-error">weight must be a number from 0 to 1</div> : null}
      {!dst && search.data?.rows.length ? (
        <ul className="dropdown static">
          {search.data.rows
            .filter((m) => m.id !== src)
            .map((m) => (
              <li key={m.id}>
                <button onClick={() => setDst({ id: m.id, head: m.head })} data-testid="link-candidate" data-memory-id={m.id}>
                  <span className={`type-dot t-${m.type}`} /> {m.head} <span className="muted small">{m.id.slice(0, 8)}</span>
                </button>
              </li>
            ))}
        </ul>
      ) : null}
      {Object.keys(errs).length ? <div className="field-error">{Object.entries(errs).map(([k, v]) => `${k}: ${v}`).join('; ')}</div> : <ErrorBox error={link.error} />}
    </div>
  );
}
