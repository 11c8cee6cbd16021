import { realpathSync, statSync } from 'node:fs';
import { MnemoError } from '../../errors.js';
import { Engine } from '../../engine/engine.js';
import { fleetStorePath, listFleet, resolveFleetFolder, type FleetListing } from '../../fleet/fleet.js';
import { listCredentials } from '../../agent/credentials.js';
import { storeKpis } from '../../observe/kpis.js';
import type { ApiSession } from '../context.js';
import { ANY_PATH, permittedPath } from '../path-policy.js';
import type { FleetStoreKpis, fleetContract } from '../contract/fleet.js';
import type { HandlersFor, ReadSession } from './types.js';
import { storeInfo } from './store.js';
import { ownerSummaries } from '../../store/queries/owner-summaries.js';
import { beliefDimensionCount } from '../../store/queries/counts.js';
import { maintenanceHistory } from '../../store/queries/maintenance-log.js';

/**
 * The folder each session's user chose (a session is one window or one `mnemo serve`). Keyed by the
 * session object whichever way a handler sees it (a read method's session is the same ApiSession).
 */
const folders = new WeakMap<ApiSession | ReadSession, string>();

/** Opens `folder` as the session's fleet. For the shells (CLI flag, Electron dialog) and `fleet.open`. */
export function openFleet(session: ApiSession | ReadSession, folder: string): FleetListing {
  const real = resolveFleetFolder(folder);
  const listing = listFleet(real);
  folders.set(session, real);
  return listing;
}

function fleetFolder(session: ApiSession | ReadSession): string {
  const f = folders.get(session);
  if (!f) throw new MnemoError('not_found', 'no fleet folder is open; choose one first (Fleet → Choose folder, or mnemo serve --fleet <folder>)');
  return f;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function credentialUses(engine: Engine): FleetStoreKpis['credentials'] {
  return listCredentials(engine.store)
    .map((c) => ({ id: c.id, owner: c.owner, label: c.label, revoked: c.revoked_at !== null, accesses: c.accesses, changes: c.changes, last_used: c.last_used }))
    .sort((a, b) => (b.last_used ?? 0) - (a.last_used ?? 0));
}

function kpisOf(session: ReadSession, name: string): FleetStoreKpis {
  const path = fleetStorePath(fleetFolder(session), name);
  const bytes = statSync(path).size;
  const current = session.hasEngine && samePath(session.engine().store.path, path);
  let engine: Engine | null = null;
  try {
    // Read-only: comparing stores must never write to them (a nooa store stays a nooa file).
    engine = Engine.open(path, { ...session.engineOptions, clock: session.clock, readonly: true });
    const info = storeInfo(engine, session);
    const k = storeKpis(engine, null, engine.now());
    const dims = beliefDimensionCount(engine.store);
    const last = maintenanceHistory(engine.store, 1)[0];
    return {
      name,
      ok: true,
      error: null,
      profile: info.profile,
      bytes,
      memories: info.counts.memories,
      live: info.counts.live,
      archived: info.counts.archived,
      edges: info.counts.edges,
      events: info.counts.events,
      changes: info.counts.changes,
      by_type: k.by_type ?? {},
      never_fetched_pct: k.never_fetched_pct ?? null,
      total_fetches: k.total_fetches ?? null,
      fetch_concentration_top10pct: k.fetch_concentration_top10pct ?? null,
      todos_open: k.todos_open ?? null,
      cross_owner_reads: k.cross_owner_reads ?? null,
      belief_dimensions: dims,
      last_maintenance: last ? { ts: last.ts, kind: last.kind, state: last.state } : null,
      credentials: credentialUses(engine),
      current,
    };
  } catch (err) {
    const e = err as Error;
    return {
      name, ok: false, error: e.message, profile: null, bytes, memories: 0, live: 0, archived: 0, edges: 0, events: 0, changes: 0, by_type: {},
      never_fetched_pct: null, total_fetches: null, fetch_concentration_top10pct: null, todos_open: null, cross_owner_reads: null, belief_dimensions: 0, last_maintenance: null, credentials: [], current,
    };
  } finally {
    engine?.close();
  }
}

export const fleetHandlers: HandlersFor<typeof fleetContract> = {
  'fleet.open': (input, session) => {
    if (session.shell.fleetPathFromApi === false) {
      throw new MnemoError('permission', 'this shell opens fleet folders only through its folder dialog; use fleet.choose (File → Open Folder of Stores…)');
    }
    return openFleet(session, permittedPath(session.shell.paths ?? ANY_PATH, input.folder, 'fleet folder'));
  },
  'fleet.choose': async (_input, session) => {
    const choose = session.shell.chooseFolder;
    if (!choose) throw new MnemoError('permission', 'browser mode cannot show a folder dialog; start it with "mnemo serve --fleet <folder>" or type the folder path');
    const folder = await choose('Open a folder of memory stores');
    return folder ? openFleet(session, folder) : null;
  },
  'fleet.list': (_input, session) => {
    const f = folders.get(session);
    return f ? listFleet(f) : null;
  },
  'fleet.kpis': (input, session) => kpisOf(session, input.name),
  // The open store's owners, whatever fleet folder is open (none needed). A credential session never
  // gets here (credential-policy.ts allows it the agent tools' reads only), so a scoped caller learns
  // no other owner's counts, as with memory.facets.
  'fleet.owners': (input, session) => ownerSummaries(session.reading().store, input.limit),
  'fleet.openStore': (input, session) => {
    const path = fleetStorePath(fleetFolder(session), input.name);
    return storeInfo(session.open(path), session);
  },
};
