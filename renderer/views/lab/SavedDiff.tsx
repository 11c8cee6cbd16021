/** What profiles.save answered: the saved name, its change, and its diff against the profile it started from. */
import type { ProfileSaved } from '../../../core/api/contract/profiles.js';

export const showValue = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function SavedDiff({ saved, testId }: { saved: ProfileSaved; testId: string }) {
  return (
    <div data-testid={testId}>
      <p>
        Saved <strong>{saved.name}</strong> (change #{saved.change_id ?? '—'}; undo it from History). Against {saved.base}:
      </p>
      <table className="results" data-testid={`${testId}-diff`}>
        <thead>
          <tr>
            <th>knob</th>
            <th>{saved.base}</th>
            <th>{saved.name}</th>
          </tr>
        </thead>
        <tbody>
          {saved.diff.map((d) => (
            <tr key={d.key}>
              <td className="mono">{d.key}</td>
              <td className="mono">{showValue(d.a)}</td>
              <td className="mono">{showValue(d.b)}</td>
            </tr>
          ))}
          {saved.diff.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                no differences
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
