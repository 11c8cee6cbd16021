/**
 * The store's name, live count and profile in the top bar. While another writer's long change is
 * written in batches (a reflection's apply, an undo, an erase), store.info holds its counts as they
 * were taken while the list and the graph follow the change batch by batch: the badge says so.
 */
import type { StoreInfo } from '../../core/api/contract/index.js';
import { heldNote, heldTitle } from './store-badge-words.js';

export function StoreBadge({ info }: { info: StoreInfo }) {
  const held = info.counts_held;
  return (
    <span className="store-badge" title={held ? heldTitle(info.path, held) : info.path} data-testid="store-badge">
      {info.name} · {info.counts.live.toLocaleString()} live
      {held ? (
        <span className="counts-held" data-testid="counts-held">
          {heldNote(held)}
        </span>
      ) : null}{' '}
      · {info.profile}
      {info.readonly ? ' · read-only' : ''}
      {info.clock_frozen ? ` · clock frozen` : ''}
    </span>
  );
}
