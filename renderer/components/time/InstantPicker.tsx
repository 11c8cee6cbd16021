/**
 * Choosing an instant: a date-time (UTC, to the second), quick steps back and forth, and the latest
 * changes to jump to. A step or a date at or after now is the live store.
 */
import { useEffect, useState } from 'react';
import { platform } from '../../platform/browser.js';
import { fromInputValue, stepInstant, toInputValue } from '../../state/instant.js';
import { RecentChangeSelect } from './RecentChangeSelect.js';
import { useHistoryStart } from '../../api/time-travel.js';
import { UtcTimeInput } from './UtcTimeInput.js';

const HOUR = 3600;
const DAY = 86_400;
const STEPS: { label: string; seconds: number; title: string }[] = [
  { label: '−1 day', seconds: -DAY, title: 'One day earlier' },
  { label: '−1 h', seconds: -HOUR, title: 'One hour earlier' },
  { label: '+1 h', seconds: HOUR, title: 'One hour later (now or later is live)' },
  { label: '+1 day', seconds: DAY, title: 'One day later (now or later is live)' },
];

export function InstantPicker({ at, onPick }: { at: number | null; onPick: (at: number | null) => void }) {
  const [text, setText] = useState(at === null ? '' : toInputValue(at));
  useEffect(() => setText(at === null ? '' : toInputValue(at)), [at]);
  const typed = fromInputValue(text);
  const start = useHistoryStart();
  /** A step never goes before the history's start: it stops there (and is off once there). */
  const step = (seconds: number): number | null => {
    const next = stepInstant(at, seconds, platform.epochSeconds());
    return next !== null && start !== null && next < start ? start : next;
  };
  const show = () => {
    if (typed === null) return;
    onPick(typed >= platform.epochSeconds() ? null : typed);
  };
  return (
    <form
      className="instant-picker"
      onSubmit={(e) => {
        e.preventDefault();
        show();
      }}
    >
      <label>
        As of <span className="muted small">(UTC)</span>{' '}
        <UtcTimeInput value={text} onChange={(e) => setText(e.target.value)} data-testid="time-input" />
      </label>
      <button type="submit" disabled={typed === null} data-testid="time-show">
        Show
      </button>
      <span className="time-steps" role="group" aria-label="Quick steps">
        {STEPS.map((s) => (
          <button
            key={s.label}
            type="button"
            title={s.seconds < 0 && start !== null ? `${s.title} (not before the history's start, ${toInputValue(start)} UTC)` : s.title}
            disabled={(at === null && s.seconds > 0) || (s.seconds < 0 && start !== null && (at ?? platform.epochSeconds()) <= start)}
            onClick={() => onPick(step(s.seconds))}
            data-testid={`time-step-${s.seconds}`}
          >
            {s.label}
          </button>
        ))}
      </span>
      <RecentChangeSelect at={at} onPick={onPick} />
    </form>
  );
}
