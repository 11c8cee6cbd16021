/**
 * One query's two rankings side by side. Each row of B says how it moved from A (↑3, ↓2, new) and
 * the term that moved its score most; rows of A that left B's top k are marked dropped. The term
 * deltas in a row's tooltip add up to its score delta.
 */
import type { LabMove, LabQueryResult, LabRow } from '../../../core/api/contract/lab.js';
import { memoryHref } from '../../state/router.js';
import { ownerLabel } from '../../components/common.js';
import { idPrefix, tiedHeads } from '../../components/row-tells.js';

export function moveLabel(m: LabMove): string {
  if (m.move === 'new') return 'new';
  if (m.move === 'dropped') return 'dropped';
  if (m.move === 'up') return `↑${m.by}`;
  if (m.move === 'down') return `↓${m.by}`;
  return '=';
}

function termsTitle(m: LabMove): string {
  if (!m.terms_delta) return 'ranked below the lab’s depth under the other profile: no terms to compare';
  const parts = Object.entries(m.terms_delta).map(([k, v]) => `${k} ${v >= 0 ? '+' : ''}${v.toFixed(4)}`);
  return `score ${m.score_a?.toFixed(4)} → ${m.score_b?.toFixed(4)} (${m.score_delta! >= 0 ? '+' : ''}${m.score_delta!.toFixed(4)}) = ${parts.join(', ')}`;
}

function Ranking({ side, rows, moves, name }: { side: 'a' | 'b'; rows: LabRow[]; moves: Map<string, LabMove>; name: string }) {
  const tied = tiedHeads(rows);
  return (
    <section className="panel lab-ranking" data-testid={`lab-ranking-${side}`}>
      <h3>
        {side.toUpperCase()}: {name}
      </h3>
      <table className="results">
        <thead>
          <tr>
            <th>#</th>
            <th>score</th>
            {side === 'b' ? <th>move</th> : null}
            {side === 'b' ? <th>moved most by</th> : null}
            <th>memory</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const m = moves.get(r.id);
            return (
              <tr key={r.id} data-testid="lab-row" data-memory-id={r.id} data-rank={r.rank} className={m && side === 'a' && m.move === 'dropped' ? 'lab-dropped' : ''}>
                <td>#{r.rank + 1}</td>
                <td className="mono">{r.score.toFixed(4)}</td>
                {side === 'b' && m ? (
                  <td className={`lab-move lab-${m.move}`} data-testid="lab-move" title={termsTitle(m)}>
                    {moveLabel(m)}
                  </td>
                ) : null}
                {side === 'b' && m ? (
                  <td className="mono small" title={termsTitle(m)}>
                    {m.component ? `${m.component} ${m.component_delta! >= 0 ? '+' : ''}${m.component_delta!.toFixed(3)}` : '—'}
                  </td>
                ) : null}
                <td className="head">
                  <a href={memoryHref(r.id)}>{r.head}</a>
                  {/* Owner always, the id where heads tie: eight equal titles are eight different memories. */}
                  <span className="muted small" data-testid="lab-row-tell">
                    {' '}
                    · {ownerLabel(r.owner)}
                    {tied.has(r.head) ? ` · ${idPrefix(r.id)}` : ''}
                  </span>
                  {side === 'a' && m?.move === 'dropped' ? <span className="tag small">dropped</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function SideBySide({ result, a, b }: { result: LabQueryResult; a: string; b: string }) {
  const moves = new Map(result.moves.map((m) => [m.id, m]));
  return (
    <div className="two-col lab-side" data-testid="lab-side-by-side">
      <Ranking side="a" rows={result.a.rows} moves={moves} name={a} />
      <Ranking side="b" rows={result.b.rows} moves={moves} name={b} />
    </div>
  );
}
