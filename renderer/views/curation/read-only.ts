/**
 * Under `--readonly` (or a store the user cannot write) every write control is disabled with this
 * reason as its tooltip, instead of staying enabled and failing after the click. The same holds
 * while a view shows the store as of a past instant: the past cannot be edited, and a change made
 * from it would land on the live store the view is not showing.
 */
import { useStoreInfo } from '../../api/hooks.js';
import { fmtInstant, instantParam } from '../../state/instant.js';
import { useRoute } from '../../state/router.js';

export const READ_ONLY_REASON = 'The store is open read-only (--readonly, or a file you cannot write): changes are switched off. Reopen it writable to change it.';

export function pastReason(at: number): string {
  return `This shows the store as it was at ${fmtInstant(at)}, which is read-only: press "Back to live" to change it.`;
}

/** The reason writes are off, or null when the store can be changed. */
export function useReadOnlyReason(): string | null {
  const info = useStoreInfo();
  const { at } = instantParam(useRoute().params);
  if (info.data?.readonly) return READ_ONLY_REASON;
  return at === null ? null : pastReason(at);
}
