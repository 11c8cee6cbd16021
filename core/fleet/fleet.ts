/**
 * A fleet: a folder of stores (one per agent run, say) that the user chose. Listing finds SQLite
 * files in the folder and its immediate subfolders (by their header, not their name), leaving out
 * the index sidecars Mnemo writes beside every store it opened (SQLite too, but a cache); a store is
 * then addressed only by its name relative to that folder, which must be one the listing returned,
 * so no caller can reach a path outside the folder the user picked.
 */
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { badInput, MnemoError, notFound } from '../errors.js';
import { isSidecarName } from '../store/derived/sidecar-name.js';

export interface FleetEntry {
  /** Path relative to the fleet folder, with '/' separators (e.g. "run-07/memory.sqlite"). */
  name: string;
  bytes: number;
  modified: number;
}

export interface FleetListing {
  folder: string;
  stores: FleetEntry[];
  /** True when more files were found than listed. */
  truncated: boolean;
}

export const MAX_FLEET_STORES = 500;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

function isSqliteFile(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(16);
    return readSync(fd, buf, 0, 16, 0) === 16 && buf.toString('latin1') === SQLITE_MAGIC;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The folder's canonical path, or a clear error when it is not an existing directory. */
export function resolveFleetFolder(folder: string): string {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    throw notFound(`folder ${folder} does not exist; give the path of a folder that holds memory stores`, { field: 'folder' });
  }
  if (!statSync(real).isDirectory()) throw badInput(`${folder} is a file, not a folder; give the folder that holds the stores`, { field: 'folder' });
  return real;
}

export function listFleet(folder: string): FleetListing {
  const root = resolveFleetFolder(folder);
  const found: FleetEntry[] = [];
  let truncated = false;
  const consider = (path: string) => {
    if (/-(wal|shm|journal)$/.test(path)) return;
    let st;
    try {
      st = statSync(path);
    } catch {
      return;
    }
    if (!st.isFile() || !isSqliteFile(path)) return;
    if (found.length >= MAX_FLEET_STORES) {
      truncated = true;
      return;
    }
    found.push({ name: relative(root, path).split(sep).join('/'), bytes: st.size, modified: st.mtimeMs / 1000 });
  };
  const entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || isSidecarName(e.name)) continue;
    const p = join(root, e.name);
    if (e.isFile()) consider(p);
    else if (e.isDirectory()) {
      let inner: string[];
      try {
        inner = readdirSync(p).sort();
      } catch {
        continue;
      }
      for (const f of inner) if (!f.startsWith('.') && !isSidecarName(f)) consider(join(p, f));
    }
  }
  return { folder: root, stores: found, truncated };
}

/** The absolute path of a store the listing of `folder` names; anything else is refused. */
export function fleetStorePath(folder: string, name: string): string {
  const listing = listFleet(folder);
  const entry = listing.stores.find((s) => s.name === name);
  if (!entry) throw new MnemoError('not_found', `no store named ${name} in the fleet folder ${listing.folder}; pick one from fleet.list`, { field: 'name' });
  return join(listing.folder, ...entry.name.split('/'));
}
