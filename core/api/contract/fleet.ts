/**
 * Fleet: a folder of stores (one per agent run, say) compared side by side, any of them opened in
 * full. The folder is one the user chose: Electron's folder dialog (`fleet.choose`), or in browser
 * mode `mnemo serve --fleet <folder>` or `fleet.open` with a validated absolute path. Stores are then
 * named relative to that folder and must be ones its listing returned.
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { FleetEntry, FleetListing } from '../../fleet/fleet.js';
import type { StoreInfo } from './store.js';
import type { CredentialRef } from '../../model/agent-credential.js';
import type { OwnerSummaries, OwnerSummary } from '../../store/port/port.js';
export type { FleetEntry, FleetListing, CredentialRef, OwnerSummaries, OwnerSummary };

/** The most owner rows `fleet.owners` answers (the store layer's cap; a store may hold far more owners). */
export const MAX_FLEET_OWNERS = 1000;

/** One agent credential of a fleet store and what was done with it. */
export interface FleetCredentialUse extends CredentialRef {
  revoked: boolean;
  accesses: number;
  changes: number;
  last_used: number | null;
}

export interface FleetStoreKpis {
  name: string;
  ok: boolean;
  /** Why the store could not be read (locked, another embedder, not a store…) when `ok` is false. */
  error: string | null;
  profile: string | null;
  bytes: number;
  memories: number;
  live: number;
  archived: number;
  edges: number;
  events: number;
  changes: number;
  by_type: Record<string, number>;
  never_fetched_pct: number | null;
  total_fetches: number | null;
  fetch_concentration_top10pct: number | null;
  todos_open: number | null;
  cross_owner_reads: number | null;
  belief_dimensions: number;
  last_maintenance: { ts: number; kind: string; state: 'applied' | 'undone' } | null;
  /** The store's agent credentials, most recently used first, with the accesses and changes each made. */
  credentials: FleetCredentialUse[];
  current: boolean;
}

/** An absolute path (POSIX, or a Windows drive path), without NUL bytes. */
const absoluteFolder = z
  .string()
  .min(1, 'folder is required')
  .max(4096, 'folder path is too long')
  .refine((p) => !p.includes('\u0000'), 'folder must not contain NUL bytes')
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'folder must be an absolute path, e.g. /home/me/runs');

/** A name from the fleet listing: a relative path of one or two plain segments. */
const storeName = z
  .string()
  .min(1, 'name is required')
  .max(1024)
  .refine((n) => !n.includes('\u0000'), 'name must not contain NUL bytes')
  .regex(/^(?!\.)[^/\\]+(\/(?!\.)[^/\\]+)?$/, 'name must be a store name from fleet.list (e.g. run-07/memory.sqlite)');

export const fleetContract = {
  'fleet.open': method<FleetListing>()({
    description: 'Open a folder of stores as the fleet (browser mode; Electron uses fleet.choose). Lists the SQLite stores in it and its subfolders.',
    input: z.object({ folder: absoluteFolder }),
  }),
  'fleet.choose': method<FleetListing | null>()({
    description: "Ask the shell to let the user pick the fleet folder (Electron's dialog); null when cancelled.",
    input: z.object({}).optional().default({}),
  }),
  'fleet.list': method<FleetListing | null>()({
    description: 'The stores of the open fleet folder (re-listed now), or null when no fleet is open.',
    input: z.object({}).optional().default({}),
  }),
  'fleet.kpis': method<FleetStoreKpis>()({
    description: 'KPIs of one fleet store, read without writing to it.',
    input: z.object({ name: storeName }),
  }),
  'fleet.owners': method<OwnerSummaries>()({
    description:
      'The agents (owners) of the open store, one row each: memories live and archived, live ones by type, edges out, accesses on its memories, its reads of other roles\' memories, newest write and access. The first `limit` owners in byte order; `truncated` says when there are more. A whole-store read, so an agent credential may not call it (like memory.facets).',
    input: z.object({ limit: z.number().int().min(1).max(MAX_FLEET_OWNERS).optional().default(MAX_FLEET_OWNERS) }).optional().default({ limit: MAX_FLEET_OWNERS }),
  }),
  'fleet.openStore': method<StoreInfo>()({
    description: 'Make one fleet store the current store (every view then shows it).',
    input: z.object({ name: storeName }),
    switchesStore: true,
  }),
};
