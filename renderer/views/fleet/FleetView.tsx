/**
 * Fleet: first the agents (owners) of the open store, one row each (StoreOwners: a fleet sharing one
 * store); then a folder of stores (one per agent run, say) side by side. Each folder row's KPIs are
 * read from its store without writing to it; "Open" makes it the current store for every view.
 */
import { useState } from 'react';
import type { FleetEntry, FleetStoreKpis } from '../../../core/api/contract/index.js';
import { canChooseFolder, useFleet, useFleetKpis, useOpenFleet, useOpenFleetStore } from '../../api/fleet.js';
import { EmptyState, ErrorBox, fmtNum, fmtTime, Loading } from '../../components/common.js';
import { buildHash, navigate } from '../../state/router.js';
import '../../components/tables.css';
import './fleet.css';
import { NumHeads } from './NumHeads.js';
import { describeError, plural } from '../../api/errors.js';
import { credentialText } from '../../components/credential.js';
import { StoreOwners } from './StoreOwners.js';

/** Each agent credential of the store: its name, then what it did (accesses, changes, last use) on a line of its own. */
function CredentialsCell({ credentials }: { credentials: FleetStoreKpis['credentials'] }) {
  if (credentials.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="fleet-credentials" data-testid="fleet-credentials">
      {credentials.map((c) => (
        <li key={c.id} title={`agent credential ${c.id} of ${c.owner ?? 'an owner no longer on record'}`} data-credential-id={c.id} className={c.revoked ? 'revoked' : ''}>
          <span className="name">{credentialText(c)}</span>
          {c.revoked ? <span className="badge warn">revoked</span> : null}
          <div className="muted">
            {plural(c.accesses, 'access', 'accesses')}, {plural(c.changes, 'change')}
            {c.last_used !== null ? `, last used ${fmtTime(c.last_used)}` : ', never used'}
          </div>
        </li>
      ))}
    </ul>
  );
}

const COLS: { key: keyof FleetStoreKpis; label: string; hint?: string; fmt?: (v: unknown) => string }[] = [
  { key: 'profile', label: 'profile' },
  { key: 'memories', label: 'memories' },
  { key: 'live', label: 'live' },
  { key: 'archived', label: 'archived' },
  { key: 'edges', label: 'edges' },
  { key: 'changes', label: 'changes', hint: 'journal entries' },
  { key: 'never_fetched_pct', label: 'never fetched', hint: 'share of memories older than a week never fetched', fmt: (v) => (v === null ? '—' : `${fmtNum(v as number, 1)}%`) },
  { key: 'total_fetches', label: 'fetches' },
  { key: 'fetch_concentration_top10pct', label: 'top 10% share', hint: 'share of fetches that went to the most fetched 10%', fmt: (v) => (v === null ? '—' : `${fmtNum((v as number) * 100, 1)}%`) },
  { key: 'todos_open', label: 'open todos' },
  { key: 'cross_owner_reads', label: 'cross-owner reads' },
  { key: 'belief_dimensions', label: 'belief dims' },
];

const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'number' ? v.toLocaleString() : String(v));

function Row({ s, onOpen, opening }: { s: FleetEntry; onOpen: () => void; opening: boolean }) {
  const k = useFleetKpis(s.name);
  const d = k.data;
  return (
    <tr data-testid="fleet-row" data-name={s.name} data-live={d?.live ?? ''} className={d?.current ? 'current' : ''} aria-busy={d === undefined && !k.error}>
      <td className="name">
        <strong>{s.name}</strong>
        {d?.current ? <span className="badge">open</span> : null}
        <div className="muted small">
          {(s.bytes / 1e6).toFixed(1)} MB · modified {fmtTime(s.modified)}
        </div>
      </td>
      {d && !d.ok ? (
        <td colSpan={COLS.length + 2} className="error-cell">
          cannot read: {d.error}
        </td>
      ) : k.error && !d ? (
        <td colSpan={COLS.length + 2} className="error-cell" data-testid="fleet-row-error">
          cannot read: {describeError(k.error).sentence}
        </td>
      ) : !d ? (
        <td colSpan={COLS.length + 2}>
          <Loading label="Reading this store…" />
        </td>
      ) : (
        <>
          {COLS.map((c) => (
            <td key={c.key} className="num">
              {c.fmt ? c.fmt(d[c.key]) : show(d[c.key])}
            </td>
          ))}
          <td className="small">
            <CredentialsCell credentials={d.credentials} />
          </td>
          <td className="small">{d.last_maintenance ? `${d.last_maintenance.kind}${d.last_maintenance.state === 'undone' ? ' (undone)' : ''} ${fmtTime(d.last_maintenance.ts)}` : '—'}</td>
        </>
      )}
      <td>
        <button onClick={onOpen} disabled={opening || d?.current} data-testid="fleet-open">
          Open
        </button>
      </td>
    </tr>
  );
}

export function FleetView() {
  const fleet = useFleet();
  const open = useOpenFleet();
  const openStore = useOpenFleetStore();
  const [folder, setFolder] = useState('');
  const listing = fleet.data;
  return (
    <div className="fleet-view">
      <h2>Fleet</h2>
      <StoreOwners />
      <h3>Stores in a folder</h3>
      <p className="muted">A folder of stores, one per agent run for instance, compared side by side. Each store is read without being written; open any of them to inspect it in full.</p>
      <form
        className="row fleet-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (folder.trim()) open.mutate({ folder: folder.trim() });
        }}
      >
        {canChooseFolder() ? (
          <button type="button" className="primary" onClick={() => open.mutate({ choose: true })} data-testid="fleet-choose">
            Choose folder…
          </button>
        ) : (
          <>
            <input value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/absolute/path/to/runs" className="grow" data-testid="fleet-folder" />
            <button type="submit" className="primary" disabled={!folder.trim() || open.isPending} data-testid="fleet-open-folder">
              Open folder
            </button>
          </>
        )}
        {listing ? (
          <span className="muted small">
            {listing.folder} · {plural(listing.stores.length, 'store')}{listing.truncated ? ' (the first 500)' : ''}
          </span>
        ) : null}
      </form>
      <ErrorBox error={open.error ?? fleet.error ?? openStore.error} />
      {fleet.isLoading ? <Loading label="Listing the folder's stores…" /> : null}
      {fleet.data === null ? (
        <EmptyState title="No folder open">
          {canChooseFolder() ? 'Choose a folder that holds memory stores (File → Open Folder of Stores…).' : 'Type the absolute path of a folder of stores, or start browser mode with "mnemo serve --fleet <folder>".'}
        </EmptyState>
      ) : null}
      {listing && listing.stores.length === 0 ? <EmptyState title="No store in this folder">Stores are SQLite files (nooa or mnemo) in the folder or one level below it.</EmptyState> : null}
      {listing && listing.stores.length ? (
        <div className="fleet-table-wrap">
          <table className="mini-table wide fleet-table" data-testid="fleet-table">
            <thead>
              <tr>
                <th>store</th>
                <NumHeads cols={COLS} />
                <th title="agent credentials issued for this store (mnemo agents add), with the accesses and changes each made">agent credentials</th>
                <th>last maintenance</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {listing.stores.map((s) => (
                <Row key={s.name} s={s} opening={openStore.isPending} onOpen={() => openStore.mutate(s.name, { onSuccess: () => navigate(buildHash('overview')) })} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
