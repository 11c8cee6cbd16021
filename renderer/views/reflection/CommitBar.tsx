/**
 * Commit the accepted items as one journalled change. A store that changed since planning is
 * refused by the engine (nothing applied); the bar then offers to plan again.
 */
import type { ApplyResult } from '../../../core/reflect/types.js';
import { ApiError } from '../../api/client.js';
import { ErrorBox } from '../../components/common.js';
import { buildHash } from '../../state/router.js';

export function CommitBar({
  accepted,
  acceptedIds,
  total,
  follows,
  pending,
  error,
  result,
  onCommit,
  onReplan,
}: {
  accepted: number;
  /** The accepted ids when the engine lists them (plans of up to 10k accepted items), for tools and tests. */
  acceptedIds: string[] | null;
  total: number;
  follows: number;
  pending: boolean;
  error: unknown;
  result: ApplyResult | null;
  onCommit: () => void;
  onReplan: () => void;
}) {
  const stale = error instanceof ApiError && error.code === 'conflict';
  return (
    <div className="commit-bar" data-testid="reflection-commit-bar" data-accepted={acceptedIds ? acceptedIds.join(',') : ''} data-accepted-count={accepted}>
      {result ? (
        <div className="commit-result" data-testid="reflection-result" data-change-id={result.change_id ?? ''} data-applied={result.applied.length}>
          <strong>Committed</strong> {result.applied.length.toLocaleString()} items as{' '}
          {result.change_id ? <a href={`#${buildHash('history', null, { change: result.change_id })}`}>change #{result.change_id}</a> : 'no change (nothing to apply)'}: merged {result.report.merged}, edges added{' '}
          {result.report.edges_added}, rescored {result.report.rescored}, pruned {result.report.pruned}
          {result.report.created ? `, created ${result.report.created}` : ''}.
          {result.skipped.length ? (
            <details>
              <summary>{result.skipped.length} accepted items were skipped at commit</summary>
              <ul>
                {result.skipped.map((s) => (
                  <li key={s.id}>
                    <span className="mono">{s.id}</span>: {s.reason}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {result.adjusted.length ? (
            <details>
              <summary>{result.adjusted.length} values differ from the plan (their inputs changed)</summary>
              <ul>
                {result.adjusted.slice(0, 200).map((a) => (
                  <li key={`${a.id}-${a.field}`}>
                    <span className="mono">{a.id}</span> {a.field}: planned {a.planned}, applied {a.applied}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <button onClick={onReplan}>Plan again</button>
        </div>
      ) : (
        <>
          <span>
            <strong>{accepted.toLocaleString()}</strong> of {total.toLocaleString()} items accepted
            {follows ? <span className="muted"> · {follows} dropped because they follow a rejected item</span> : null}
          </span>
          <span className="spacer" />
          <button className="primary" onClick={onCommit} disabled={pending || accepted === 0} data-testid="reflection-commit">
            {pending ? 'Committing…' : `Commit ${accepted.toLocaleString()} accepted`}
          </button>
        </>
      )}
      {stale ? (
        <div className="error" role="alert" data-testid="reflection-stale">
          <strong>Refused: the store changed since this plan was made.</strong> {(error as Error).message}{' '}
          <button onClick={onReplan} data-testid="reflection-replan">
            Re-plan
          </button>
        </div>
      ) : (
        <ErrorBox error={error} />
      )}
    </div>
  );
}
