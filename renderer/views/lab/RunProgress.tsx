/** n of N for a chunked lab run, with Cancel (the run stops before its next call). */
import type { ChunkedRun } from '../../api/lab.js';

export function RunProgress<T>({ run, unit }: { run: ChunkedRun<T>; unit: string }) {
  if (!run.running && !run.cancelled) return null;
  return (
    <span className="lab-progress" data-testid="lab-progress">
      {run.running ? (
        <>
          <progress max={run.total} value={run.done} /> {run.done} of {run.total} {unit}{' '}
          <button onClick={run.cancel} data-testid="lab-cancel">
            Cancel
          </button>
        </>
      ) : (
        <span className="muted small">
          cancelled after {run.done} of {run.total} {unit}
        </span>
      )}
    </span>
  );
}
