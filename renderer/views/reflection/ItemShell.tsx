/** The frame of one plan item: its id and op, accept / reject, its state, and why it follows another. */
import type { ReactNode } from 'react';
import type { ReviewItem } from '../../../core/api/contract/index.js';

type Decision = Pick<ReviewItem, 'state' | 'because' | 'note'>;

export function ItemShell({
  id,
  op,
  decision,
  reason,
  subjects,
  locked,
  crossOwner = false,
  onAccept,
  onReject,
  children,
}: {
  id: string;
  op: string;
  decision: Decision;
  reason: string;
  /** The memories the item is about (anchor and duplicate, source and target, …). */
  subjects: string[];
  locked: boolean;
  /** Between memories of two owners: flagged, and unaccepted until someone accepts it. */
  crossOwner?: boolean;
  onAccept: () => void;
  onReject: () => void;
  children: ReactNode;
}) {
  const { state, note } = decision;
  return (
    <div tabIndex={0} className={`plan-item s-${state}`} data-testid="reflection-item" data-op-id={id} data-op={op} data-state={state} data-memories={subjects.join(',')} data-because={decision.because.join(',')} data-cross-owner={crossOwner ? 'true' : undefined}>
      <div className="plan-item-head">
        <span className="op-id mono">{id}</span>
        <span className={`state-badge s-${state}`}>{state === 'follows' ? 'dropped (follows)' : state === 'rejected' && crossOwner ? 'not accepted' : state}</span>
        <span className="reason muted small">{reason}</span>
        <span className="spacer" />
        <button className={state === 'accepted' ? 'on' : ''} onClick={onAccept} disabled={locked || state === 'accepted'} data-testid="reflection-accept" title="Apply this item on commit (with what it depends on)">
          ✓ Accept
        </button>
        <button className={state !== 'accepted' ? 'on' : ''} onClick={onReject} disabled={locked || state === 'rejected'} data-testid="reflection-reject" title="Leave this item out (items that depend on it follow)">
          ✕ Reject
        </button>
      </div>
      {note ? (
        <div className={`plan-note${state === 'follows' || crossOwner ? ' warn' : ''}`} data-testid="reflection-note">
          {note}
        </div>
      ) : null}
      <div className="plan-item-body">{children}</div>
    </div>
  );
}
