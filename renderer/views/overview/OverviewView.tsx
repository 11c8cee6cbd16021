/**
 * Overview: the store's KPIs, Datasette-style facets that open the Memories list filtered, rows
 * vs reads per type, the retention × importance scatter with brushing, and the maintenance history.
 */
import { useEffect } from 'react';
import type { MaintenanceRow, StoreKpis } from '../../../core/api/contract/index.js';
import { useKpis, useMaintenance, useOverviewFacets, useRowsVsReads, useScatter } from '../../api/overview.js';
import { fmtNum, fmtTime, QueryView } from '../../components/common.js';
import { platform } from '../../platform/browser.js';
import { buildHash } from '../../state/router.js';
import { useUi } from '../../state/ui.js';
import { FacetPanel } from './FacetPanel.js';
import { RetentionScatter } from './RetentionScatter.js';
import { RowsReadsChart } from './RowsReadsChart.js';
import '../../components/tables.css';
import './overview.css';

function Kpi({ name, value, hint }: { name: string; value: string; hint?: string }) {
  return (
    <div className="kpi" title={hint} data-testid={`kpi-${name.replace(/\W+/g, '-').toLowerCase()}`}>
      <div className="kpi-value">{value}</div>
      <div className="kpi-name">{name}</div>
    </div>
  );
}

/** A fraction (0–1) as a percentage. */
const pct = (v: number | undefined) => (v === undefined ? '—' : `${fmtNum(v * 100, 1)}%`);

function Kpis({ k }: { k: StoreKpis }) {
  return (
    <div className="kpis" data-testid="overview-kpis">
      <Kpi name="live memories" value={k.total.toLocaleString()} />
      <Kpi name="with references" value={(k.with_references ?? 0).toLocaleString()} />
      <Kpi name="never fetched" value={k.never_fetched_pct === undefined ? '—' : `${fmtNum(k.never_fetched_pct, 1)}%`} hint="share of memories older than a week never fetched" />
      <Kpi name="fetches" value={(k.total_fetches ?? 0).toLocaleString()} />
      <Kpi name="fetches to top 10%" value={pct(k.fetch_concentration_top10pct)} hint="share of fetches that went to the most fetched 10% of memories" />
      <Kpi name="injected used" value={pct(k.injected_used_rate)} hint="injections followed by a use of the memory" />
      <Kpi name="dedup reinforces" value={(k.dedup_reinforces ?? 0).toLocaleString()} />
      <Kpi name="open todos" value={`${k.todos_open ?? 0}`} hint={k.todo_median_open_age_hours ? `median open age ${fmtNum(k.todo_median_open_age_hours, 1)} h` : undefined} />
      <Kpi name="cross-owner reads" value={(k.cross_owner_reads ?? 0).toLocaleString()} />
    </div>
  );
}

function Maintenance() {
  const q = useMaintenance(30);
  return (
    <div className="panel" data-testid="maintenance">
      <h3>
        Maintenance history <span className="muted small">reflection passes and prunes, newest first</span>
      </h3>
      <QueryView query={q} label="Reading the maintenance log…">
        {({ rows }) => <MaintenanceRows rows={rows} />}
      </QueryView>
    </div>
  );
}

function MaintenanceRows({ rows }: { rows: MaintenanceRow[] }) {
  return (
    <>
      {rows.length === 0 ? (
        <p className="muted">
          No maintenance yet. Plan and commit a pass in <a href={`#${buildHash('reflection')}`}>Reflection</a>.
        </p>
      ) : null}
      {rows.length ? (
        <table className="mini-table wide">
          <thead>
            <tr>
              <th>when</th>
              <th>kind</th>
              <th>report</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.ts}-${i}`} className={r.state === 'undone' ? 'undone' : undefined} data-testid="maintenance-row" data-state={r.state}>
                <td className="nowrap">{fmtTime(r.ts)}</td>
                <td>
                  {r.kind}
                  {r.state === 'undone' ? (
                    <span className="badge" title="This pass was undone in History; its changes are no longer in the store.">
                      undone
                    </span>
                  ) : null}
                </td>
                <td className="small mono report">
                  {r.report && typeof r.report === 'object'
                    ? Object.entries(r.report as Record<string, unknown>)
                        .filter(([, v]) => v !== null && typeof v !== 'object')
                        .map(([k, v]) => `${k} ${v}`)
                        .join(' · ')
                    : String(r.report)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

export function OverviewView() {
  const dark = useUi((s) => s.theme === 'dark');
  const kpis = useKpis();
  const facets = useOverviewFacets();
  const rvr = useRowsVsReads();
  const scatter = useScatter(5000);
  useEffect(() => {
    if (facets.data && scatter.data) platform.mark('mnemo:overview-rendered');
  }, [facets.data, scatter.data]);
  return (
    <div className="overview-view">
      {/* Focusable so a keyboard can scroll it: on a short window its KPIs and charts hold nothing else that takes focus. */}
      <div className="overview-main" tabIndex={0} role="region" aria-label="Overview">
        <h2>Overview</h2>
        <QueryView query={kpis} label="Computing KPIs…">
          {(k) => <Kpis k={k} />}
        </QueryView>
        <div className="overview-charts">
          <QueryView query={rvr} label="Counting rows and reads…">
            {(d) => <RowsReadsChart data={d} dark={dark} />}
          </QueryView>
          <QueryView query={scatter} label="Computing retention…">
            {(d) => <RetentionScatter data={d} dark={dark} />}
          </QueryView>
        </div>
        <Maintenance />
      </div>
      <aside className="overview-facets">
        <QueryView query={facets} label="Counting facets…">
          {(f) => <FacetPanel f={f} />}
        </QueryView>
      </aside>
    </div>
  );
}
