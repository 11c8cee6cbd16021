/** The two instants compared: typed (UTC, to the second) or one of the usual windows up to now. */
import { useEffect, useState } from 'react';
import { platform } from '../../../platform/browser.js';
import { fromInputValue, toInputValue } from '../../../state/instant.js';
import { UtcTimeInput } from '../../../components/time/UtcTimeInput.js';
import { DAY } from './diff-params.js';

const WINDOWS: [string, number][] = [
  ['Last hour', 3600],
  ['Last day', DAY],
  ['Last week', 7 * DAY],
];

export function DiffRange({ from, to, onChange }: { from: number; to: number; onChange: (from: number, to: number) => void }) {
  const [a, setA] = useState(toInputValue(from));
  const [b, setB] = useState(toInputValue(to));
  useEffect(() => setA(toInputValue(from)), [from]);
  useEffect(() => setB(toInputValue(to)), [to]);
  const fa = fromInputValue(a);
  const fb = fromInputValue(b);
  return (
    <form
      className="diff-range"
      onSubmit={(e) => {
        e.preventDefault();
        if (fa !== null && fb !== null) onChange(Math.min(fa, fb), Math.max(fa, fb));
      }}
    >
      <label>
        From <span className="muted small">(UTC)</span> <UtcTimeInput value={a} onChange={(e) => setA(e.target.value)} data-testid="diff-from" aria-label="from (UTC)" />
      </label>
      <label>
        to <UtcTimeInput value={b} onChange={(e) => setB(e.target.value)} data-testid="diff-to" aria-label="to (UTC)" />
      </label>
      <button type="submit" className="primary" disabled={fa === null || fb === null} data-testid="diff-compare">
        Compare
      </button>
      <span className="time-steps" role="group" aria-label="Usual windows">
        {WINDOWS.map(([label, span]) => (
          <button
            key={label}
            type="button"
            onClick={() => {
              const now = Math.floor(platform.epochSeconds());
              onChange(now - span, now);
            }}
          >
            {label}
          </button>
        ))}
      </span>
    </form>
  );
}
