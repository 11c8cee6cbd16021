/**
 * A time field in UTC, 24-hour, to the second ("2026-12-02 06:24:10"): a text field, because a
 * `datetime-local` input shows its value in the browser's 12-hour local format under our UTC label.
 */
import type { InputHTMLAttributes } from 'react';

export const UTC_TIME_PLACEHOLDER = 'YYYY-MM-DD HH:MM:SS';

export function UtcTimeInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return <input type="text" inputMode="numeric" placeholder={UTC_TIME_PLACEHOLDER} size={19} spellCheck={false} autoComplete="off" {...props} />;
}
