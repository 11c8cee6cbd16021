/** "Why not?": for any memory, its rank or the leg that missed it, its terms, and its margin to the k-th result. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar } from '../../components/ComponentBar.js';
import { ErrorBox, fmtNum } from '../../components/common.js';
import { memoryHref } from '../../state/router.js';
import type { RecallParams } from './RecallView.js';

const STATUS_TEXT = { in_top_k: 'in the top k', below_k: 'ranked, but below the cut', not_candidate: 'never became a candidate' } as const;

export function WhyNotPanel({ params, onTarget }: { params: RecallParams; onTarget: (id: string) => void }) {
  const [text, setText] = useState(params.why ?? '');
  const input = { query: params.q, k: params.k, hops: params.hops, target: params.why ?? '', ...(params.owner ? { owner: params.owner } : {}) };
  const q = useQuery({ queryKey: keys.whyNot(input), queryFn: () => call('recall.whyNot', input), enabled: !!params.why && !!params.q.trim() });
  const w = q.data;
  return (
    <section className="panel" data-testid="why-not">
      <h3>Why not…?</h3>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) onTarget(text.trim());
        }}
      >
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder="memory id or prefix" className="grow mono" data-testid="why-not-input" />
        <button type="submit">Explain</button>
      </form>
      <ErrorBox error={q.error} />
      {w ? (
        <div className="why-result" data-status={w.status}>
          <p>
            <a href={memoryHref(w.target)} className="mono">
              {w.target.slice(0, 12)}
            </a>{' '}
            is <strong>{STATUS_TEXT[w.status]}</strong>
            {w.rank !== null ? ` (rank ${w.rank + 1} of ${w.ranked})` : ''}
            {w.margin !== null ? ` · margin to the k-th result ${w.margin >= 0 ? '+' : ''}${fmtNum(w.margin, 4)}` : ''}.
          </p>
          <ComponentBar c={w.terms} />
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
              <tr>
                <th>keyword</th>
                <td>{w.legs.sparse.reason}</td>
              </tr>
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
        <p className="muted small">Give the id of a memory you expected to see; the console says where it ranked or which stage dropped it.</p>
      )}
    </section>
  );
}
