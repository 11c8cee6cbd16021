/**
 * The shapes of the access audit (shared by the API contract, the CLI and the renderer). One event
 * is model/access-event.ts (replay, in recall, shows one too); what a replay answers is in
 * recall/types.ts.
 */
import type { AccessEventView } from '../model/access-event.js';

export type { AccessEventView };

export interface AccessListResult {
  /** `events` = the mnemo_access_events table; `rings` = the 64-entry rings (store without the table). */
  source: 'events' | 'rings';
  total: number;
  events: AccessEventView[];
}
