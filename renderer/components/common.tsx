/** Small shared pieces: empty states that say what to do, errors, loading states, delayed progress. */
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { describeError } from '../api/errors.js';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <h3>{title}</h3>
      {children ? <div className="empty-body">{children}</div> : null}
    </div>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const { heading, sentence } = describeError(error);
  const code = (error as { code?: unknown }).code;
  return (
    <div className="error" role="alert" data-testid="error" data-code={typeof code === 'string' ? code : undefined}>
      <strong>{heading}.</strong> {sentence}
    </div>
  );
}

/** A value that turns true only after `ms` of `on` (so quick work never flashes a spinner). */
export function useDelayed(on: boolean, ms: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!on) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), ms);
    return () => clearTimeout(t);
  }, [on, ms]);
  return shown;
}

/** The global progress bar: appears when any engine call has taken more than 600 ms. */
export function GlobalProgress() {
  const busy = useIsFetching() + useIsMutating() > 0;
  const shown = useDelayed(busy, 600);
  return shown ? <div className="progress" role="progressbar" aria-label="working" data-testid="progress" /> : null;
}

/**
 * What a view shows while its data is on the way: never a 0 or an empty table that is not true
 * yet. A status region (announced politely) marked busy.
 */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite" aria-busy="true" data-testid="loading">
      <span className="spinner-dot" aria-hidden="true" /> {label}
    </div>
  );
}

/** The older name of Loading, kept for the views that say what they are doing ("Replaying…"). */
export const Spinner = Loading;

/** A count that is not known yet: an ellipsis, with words for screen readers. */
export function PendingCount() {
  return (
    <span className="n pending" aria-label="counting" title="counting…" data-testid="pending-count">
      …
    </span>
  );
}

/**
 * A query's three states in one place: a loading state while its data is undefined, its error
 * when it failed, then the content. Data already shown stays shown when a refetch fails.
 */
export function QueryView<T>({ query, label, children }: { query: { data: T | undefined; error: unknown }; label?: string; children: (data: T) => ReactNode }) {
  if (query.data !== undefined) {
    return (
      <>
        <ErrorBox error={query.error} />
        {children(query.data)}
      </>
    );
  }
  if (query.error) return <ErrorBox error={query.error} />;
  return <Loading label={label} />;
}

export { fmtTime } from './format-time.js';

export function fmtNum(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Number(v.toFixed(digits)).toString();
}

export function ownerLabel(owner: string | null | undefined): string {
  return owner ? owner : '(unowned)';
}
