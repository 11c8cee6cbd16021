/**
 * The Overview screen's drill-down data: facet counts whose clicks filter the Memories list, the
 * retention × importance scatter, and the maintenance history. (KPIs and rows vs reads are
 * `stats.kpis` and `stats.rowsVsReads`.)
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { OverviewFacets, RangeFacet, RetentionScatter, ScatterPoint } from '../../observe/overview.js';
import type { MaintenanceEntry as MaintenanceRow } from '../../store/port/port.js';
export type { OverviewFacets, RangeFacet, RetentionScatter, ScatterPoint };

export type { MaintenanceEntry as MaintenanceRow } from '../../store/port/port.js';

export const overviewContract = {
  'overview.facets': method<OverviewFacets>()({
    description: 'Facet counts over the live memories: type, owner, todo status, archived, edge type, retention bucket, idle-time bucket.',
    input: z.object({}).optional().default({}),
  }),
  'overview.scatter': method<RetentionScatter>()({
    description: 'Retention now × importance for the live memories (a deterministic sample of at most `sample` points).',
    input: z.object({ sample: z.number().int().min(10).max(100_000).optional().default(5000) }).optional().default({ sample: 5000 }),
  }),
  'overview.maintenance': method<{ rows: MaintenanceRow[] }>()({
    description: 'The maintenance log (reflection passes, prunes), newest first; a pass whose change was undone says state "undone".',
    input: z.object({ limit: z.number().int().min(1).max(1000).optional().default(50) }).optional().default({ limit: 50 }),
  }),
};
