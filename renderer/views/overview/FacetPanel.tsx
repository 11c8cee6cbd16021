/**
 * Datasette-style facets: each value with its count, and a click that opens the Memories list
 * filtered to exactly those rows (the counts and the list filter share the engine's SQL).
 */
import type { OverviewFacets, RangeFacet } from '../../../core/api/contract/index.js';
import { ownerLabel } from '../../components/common.js';
import { memoriesHref } from '../memories/filters.js';

interface Value {
  label: string;
  value: string;
  n: number;
  href: string;
}

function FacetGroup({ name, title, values, total }: { name: string; title: string; values: Value[]; total: number }) {
  const max = Math.max(1, ...values.map((v) => v.n));
  return (
    <section className="facet-group" data-facet={name}>
      <h4>{title}</h4>
      {values.length === 0 ? <div className="muted small">none</div> : null}
      <ul>
        {values.map((v) => (
          <li key={v.value}>
            <a href={v.href} data-testid="facet-value" data-facet={name} data-value={v.value} data-n={v.n} title={`${v.n.toLocaleString()} of ${total.toLocaleString()} — open them in Memories`}>
              <span className="facet-bar" style={{ width: `${(v.n / max) * 100}%` }} />
              <span className="facet-label">{v.label}</span>
              <span className="n">{v.n.toLocaleString()}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

const rangeOf = (b: RangeFacet) => ({ min: b.min, max: b.max });

export function FacetPanel({ f }: { f: OverviewFacets }) {
  const groups: { name: string; title: string; values: Value[] }[] = [
    { name: 'type', title: 'Type', values: f.types.map((t) => ({ label: t.value, value: t.value, n: t.n, href: memoriesHref({ types: [t.value] }) })) },
    {
      name: 'owner',
      title: 'Owner',
      values: f.owners.slice(0, 25).map((o) => ({ label: ownerLabel(o.value), value: o.value, n: o.n, href: memoriesHref({ owners: [o.value] }) })),
    },
    { name: 'status', title: 'Todo status', values: f.statuses.map((s) => ({ label: s.value, value: s.value, n: s.n, href: memoriesHref({ statuses: [s.value] }) })) },
    {
      name: 'archived',
      title: 'Archived',
      values: [
        { label: 'live', value: 'live', n: f.live, href: memoriesHref({ archived: 'live' }) },
        { label: 'archived', value: 'archived', n: f.archived, href: memoriesHref({ archived: 'archived' }) },
      ],
    },
    { name: 'edge', title: 'Edge type (in or out)', values: f.edge_types.map((e) => ({ label: e.value, value: e.value, n: e.n, href: memoriesHref({ edges: [e.value] }) })) },
    {
      name: 'retention',
      title: `Retention now (prune below ${f.prune_threshold})`,
      values: f.retention.map((b) => ({ label: b.value, value: b.value, n: b.n, href: memoriesHref({ retention: rangeOf(b) }) })),
    },
    { name: 'idle', title: 'Last access', values: f.idle.map((b) => ({ label: `${b.value} ago`, value: b.value, n: b.n, href: memoriesHref({ idle: rangeOf(b) }) })) },
  ];
  return (
    <div className="facet-panel" data-testid="overview-facets">
      {groups.map((g) => (
        <FacetGroup key={g.name} name={g.name} title={g.title} values={g.values} total={g.name === 'archived' ? f.live + f.archived : f.live} />
      ))}
      <p className="muted small">Counts are over the live memories (Archived: over all). Click a value to list exactly those memories.</p>
    </div>
  );
}
