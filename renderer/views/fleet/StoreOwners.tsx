/**
 * "Agents in this store": one row per owner of the open store (fleet.owners), SQLite or PostgreSQL.
 * A fleet of agents writing one shared store is one store with many owners, so this section shows
 * whether or not a fleet folder is open. Owner strings are data: React renders them as text.
 */
import type { OwnerSummary } from '../../../core/api/contract/index.js';
import { useFleetOwners } from '../../api/fleet.js';
import { plural } from '../../api/errors.js';
import { EmptyState, ErrorBox, fmtTime, Loading } from '../../components/common.js';
import { memoriesHref } from '../memories/filters.js';
import { NumHeads } from './NumHeads.js';

const COLS: { key: keyof OwnerSummary; label: string; hint: string }[] = [
  { key: 'live', label: 'live', hint: 'live memories it owns' },
  { key: 'archived', label: 'archived', hint: 'archived memories it owns' },
  { key: 'edges_out', label: 'edges out', hint: 'edges from its memories (archived ones included)' },
  { key: 'accesses', label: 'accesses', hint: 'access events on its memories, by any reader' },
  { key: 'foreign_reads', label: 'reads of others', hint: "accesses it made to memories of another role (the Access audit's cross-owner rule)" },
];

/** Live memories by type, most first: "fact 12 · skill 3". */
function typesText(byType: Record<string, number>): string {
  const entries = Object.entries(byType).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([t, n]) => `${t} ${n.toLocaleString()}`).join(' · ') : '—';
}

function OwnerRow({ o }: { o: OwnerSummary }) {
  const archivedOnly = o.live === 0 && o.archived > 0;
  // An owner whose memories are all archived lists them; one that owns none still opens its (empty) list.
  const href = memoriesHref({ owners: [o.owner], ...(archivedOnly ? { archived: 'archived' as const } : {}) });
  return (
    <tr data-testid="owner-row" data-owner={o.owner} data-live={o.live}>
      <td className="name">
        <a href={href} data-testid="owner-link" title={`open the memories of ${o.owner === '' ? 'no owner' : o.owner} in Memories`}>
          {o.owner === '' ? <em>(unowned)</em> : o.owner}
        </a>
      </td>
      {COLS.map((c) => (
        <td key={c.key} className="num" data-col={c.key}>
          {(o[c.key] as number).toLocaleString()}
        </td>
      ))}
      <td className="small">{typesText(o.by_type)}</td>
      <td className="num small">{fmtTime(o.last_created)}</td>
      <td className="num small">{fmtTime(o.last_access)}</td>
    </tr>
  );
}

export function StoreOwners() {
  const q = useFleetOwners();
  const noStore = (q.error as { code?: unknown } | null)?.code === 'not_found';
  const owners = q.data?.owners ?? [];
  return (
    <section className="fleet-owners" data-testid="fleet-owners" aria-labelledby="fleet-owners-title">
      <h3 id="fleet-owners-title">Agents in this store</h3>
      <p className="muted small">
        One row per owner of the open store: what it wrote, how often its memories were read, and how often it read other agents' memories. Click an owner to list its memories.
      </p>
      {noStore ? <EmptyState title="No store open">Open a store (File → Open Store…) to see its agents.</EmptyState> : <ErrorBox error={q.error} />}
      {q.isLoading ? <Loading label="Counting the store's owners…" /> : null}
      {q.data && owners.length === 0 ? <EmptyState title="No agents yet">This store holds no memories and no reads of them.</EmptyState> : null}
      {owners.length ? (
        <div className="fleet-table-wrap">
          <table className="mini-table wide fleet-table" data-testid="owners-table">
            <thead>
              <tr>
                <th>owner</th>
                <NumHeads cols={COLS} />
                <th title="live memories by type">live by type</th>
                <th title="newest created_at of its memories" className="num">
                  last write
                </th>
                <th title="newest access event on its memories" className="num">
                  last access
                </th>
              </tr>
            </thead>
            <tbody>
              {owners.map((o) => (
                <OwnerRow key={o.owner} o={o} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {q.data?.truncated ? (
        <p className="muted small" data-testid="owners-truncated">
          The store has more owners: these are the first {plural(owners.length, 'owner')} in byte order.
        </p>
      ) : null}
    </section>
  );
}
