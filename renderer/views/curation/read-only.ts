/**
 * Under `--readonly` (or a store the user cannot write) every write control is disabled with this
 * reason as its tooltip, instead of staying enabled and failing after the click.
 */
import { useStoreInfo } from '../../api/hooks.js';

export const READ_ONLY_REASON = 'The store is open read-only (--readonly, or a file you cannot write): changes are switched off. Reopen it writable to change it.';

/** The reason writes are off, or null when the store can be changed. */
export function useReadOnlyReason(): string | null {
  const info = useStoreInfo();
  return info.data?.readonly ? READ_ONLY_REASON : null;
}
