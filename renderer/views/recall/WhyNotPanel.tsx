/**
 * "Why not?": for any memory, its rank or the leg that missed it, its score as the sum of its
 * terms, and the row at the cut it has to beat. The memory can be named by id or found by words
 * (a picker of matching memories, archived ones included: they are a common answer to "why not").
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar } from '../../components/ComponentBar.js';
import { ErrorBox, fmtNum, fmtTime, ownerLabel } from '../../components/common.js';
import { idPrefix, tiedHeads } from '../../components/row-tells.js';
import { memoryHref } from '../../state/router.js';
import type { RecallParams } from './params.js';

/** Each reads after "<memory> is": the status as a phrase that completes the sentence. */
export const STATUS_TEXT = { in_top_k: 'in the top k', below_k: 'ranked, but below the cut', not_candidate: 'not a candidate (no leg found it)', superseded: 'left out as superseded' } as const;

/** A 4–32 digit hex string is taken as an id (or prefix); anything else is words to search. */
export const looksLikeId = (s: string) => /^[0-9a-f]{4,32}$/i.test(s.trim());

export function WhyNotPanel({ params, onTarget }: { params: RecallParams; onTarget: (id: string) => void }) {
  const [text, setText] = useState(params.why ?? '');
  const [words, setWords] = useState<string | null>(null);
  useEffect(() => setText(params.why ?? ''), [params.why]);
  const input = { query: params.q, k: params.k, hops: params.hops, target: params.why ?? '', ...(params.owner ? { owner: params.owner } : {}) };
  const q = useQuery({ queryKey: keys.whyNot(input), queryFn: () => call('recall.whyNot', input), enabled: !!params.why && !!params.q.trim() });
  const listInput = { text: words ?? '', archived: 'all' as const, limit: 8 };
  const picker = useQuery({ queryKey: ['whyNotPicker', listInput], queryFn: () => call('memory.list', listInput), enabled: !!words });
  const w = q.data;
  // Ties as shown: two heads equal in their first 70 characters look the same on screen.
  const shown = (head: string) => head.slice(0, 70);
  const tied = tiedHeads((picker.data?.rows ?? []).map((m) => ({ head: shown(m.head) })));
  const pick = (id: string) => {
    setWords(null);
    onTarget(id);
  };
  return (
    <section className="panel" data-testid="why-not">
      <h3>Why not…?</h3>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const t = text.trim();
          if (!t) return;
          if (looksLikeId(t)) pick(t);
          else setWords(t);
        }}
      >
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder="words from the memory, or its id" className="grow" data-testid="why-not-input" aria-label="memory to explain: words or id" />
        <button type="submit">{looksLikeId(text) ? 'Explain' : 'Find'}</button>
      </form>
      {words ? (
        <div className="why-picker" data-testid="why-not-picker">
          <ErrorBox error={picker.error} />
          {picker.data && picker.data.rows.length === 0 ? <p className="muted small">No memory contains “{words}”.</p> : null}
          <ul className="small plain">
            {(picker.data?.rows ?? []).map((m) => (
              <li key={m.id}>
                <button type="button" className="link" data-testid="why-not-pick" data-memory-id={m.id} onClick={() => pick(m.id)}>
                  <span className={`type-dot t-${m.type}`} /> {shown(m.head)}
                </button>{' '}
                {/* What tells the rows apart: owner and time always, the id too where titles tie. */}
                <span className="muted" data-testid="why-not-pick-tell">
                  {ownerLabel(m.owner)} · {fmtTime(m.created_at)}
                  {tied.has(shown(m.head)) ? ` · ${idPrefix(m.id)}` : ''}
                  {m.archived ? ' · archived' : ''}
                </span>
              </li>
            ))}
          </ul>
          {picker.data && picker.data.total > picker.data.rows.length ? <p className="muted small">{picker.data.total - picker.data.rows.length} more match; add words to narrow.</p> : null}
        </div>
      ) : null}
      <ErrorBox error={q.error} />
      {w ? (
        <div className="why-result" data-status={w.status} data-testid="why-not-result">
          <p>
            <a href={memoryHref(w.target)}>{w.target_head.slice(0, 60) || w.target.slice(0, 12)}</a> is <strong>{STATUS_TEXT[w.status]}</strong>
            {w.rank !== null ? (w.status === 'superseded' ? ` (it would rank #${w.rank + 1})` : ` (#${w.rank + 1} of ${w.ranked})`) : ''}
            {w.margin !== null ? ` · margin to #${w.k} ${w.margin >= 0 ? '+' : ''}${fmtNum(w.margin, 4)}` : ''}.
          </p>
          <div className="small">
            its score {fmtNum(w.terms.score, 4)}
            {w.status === 'not_candidate' ? ' (as if it had been a candidate)' : ''}
          </div>
          <ComponentBar terms={w.contributions} scale={Math.max(w.terms.score, w.kth?.score ?? 0, 0.001)} />
          {w.kth && w.kth.id !== w.target ? (
            <>
              <div className="small">
                the cut: #{w.kth.rank + 1} <a href={memoryHref(w.kth.id)}>{w.kth.head.slice(0, 50)}</a> scores {fmtNum(w.kth.score, 4)}
              </div>
              <ComponentBar terms={w.kth.terms} scale={Math.max(w.terms.score, w.kth.score, 0.001)} />
            </>
          ) : null}
          <ul className="explanation">
            {w.explanation.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
          <table className="small">
            <tbody>
              <tr>
                <th>dense</th>
                <td>{w.legs.dense.reason}</td>
              </tr>
              {w.legs.bm25 ? (
                <tr>
                  <th>keyword (BM25)</th>
                  <td>{w.legs.bm25.reason}</td>
                </tr>
              ) : null}
              {w.legs.sparse.on || !w.legs.bm25 ? (
                <tr>
                  <th>{w.legs.bm25 ? 'keyword (substring)' : 'keyword'}</th>
                  <td>{w.legs.sparse.reason}</td>
                </tr>
              ) : null}
              <tr>
                <th>spread</th>
                <td>{w.legs.spread.reason}</td>
              </tr>
              <tr>
                <th>visible</th>
                <td>{w.visibility.reason}</td>
              </tr>
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted small">Name a memory you expected to see, by words or id; the console says where it ranked or which stage dropped it.</p>
      )}
    </section>
  );
}
