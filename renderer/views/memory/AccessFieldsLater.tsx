/**
 * Under the time control, what cannot be shown as of the instant is marked as live: when the
 * instant is older than the accesses the change feed keeps (`mnemo feed --access-days`), the
 * record's access fields (ring, counters, strength, last access) and so its retention show a later state.
 */
import { useViewInstant } from '../../api/time-travel.js';

export function AccessFieldsLater() {
  const { at, asOf } = useViewInstant();
  if (at === null || asOf.data?.access_fields_exact !== false) return null;
  return (
    <p className="muted small" data-testid="access-fields-live">
      <span className="badge">live</span> The access ring, counters, strength and retention here show a later state than the instant: the change feed no longer keeps the accesses
      from then (mnemo feed --access-days).
    </p>
  );
}
