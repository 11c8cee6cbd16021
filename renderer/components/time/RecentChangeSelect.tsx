/**
 * The instants where changes happened, as a list to jump to: the latest journalled changes, each
 * named by its memories' titles, each jumping to the store just after it.
 */
import { useHeads } from '../../api/curation.js';
import { useRecentChanges } from '../../api/time-travel.js';
import { fmtInstant } from '../../state/instant.js';
import { changeName } from '../../views/history/change-name.js';

export function RecentChangeSelect({ at, onPick }: { at: number | null; onPick: (at: number) => void }) {
  const changes = useRecentChanges();
  const rows = (changes.data ?? []).filter((c) => c.state === 'applied');
  const heads = useHeads(rows.flatMap((c) => c.memory_ids));
  if (rows.length === 0) return null;
  const afterChange = (ts: number) => Math.ceil(ts);
  const current = rows.find((c) => afterChange(c.ts) === at);
  return (
      <select
        className="time-changes"
        aria-label="Jump to just after a change"
        value={current ? String(afterChange(current.ts)) : ''}
        onChange={(e) => e.target.value && onPick(Number(e.target.value))}
        data-testid="time-change-select"
        title="Show the store just after one of the latest changes made with Mnemo"
      >
        <option value="">After a change…</option>
        {rows.map((c) => (
          <option key={c.id} value={afterChange(c.ts)}>
            {fmtInstant(afterChange(c.ts))} · #{c.id} {changeName(c.label, c.memory_ids, (id) => heads.data?.get(id)?.head)}
          </option>
        ))}
      </select>
  );
}
