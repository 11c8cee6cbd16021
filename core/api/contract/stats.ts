/**
 * Counts and observability: basic counts by type, owner, status and edge type; nooa's per-memory
 * usage panel and store KPIs (field for field); rows against reads per memory type (how much of
 * the store is ever read).
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { MemoryUsage, StoreKpis, RowsVsReadsRow, RowsVsReads } from '../../observe/types.js';
export type { MemoryUsage, StoreKpis, RowsVsReadsRow, RowsVsReads };
import { scopeField } from './shared/fields.js';

export interface BasicStats {
  total: number;
  live: number;
  archived: number;
  by_type: Record<string, number>;
  by_owner: Record<string, number>;
  by_status: Record<string, number>;
  edges: number;
  edges_by_type: Record<string, number>;
  access_events: number;
}

export const statsContract = {
  'stats.basic': method<BasicStats>()({
    description: 'Counts by type, owner, status and edge type (archived rows included in `total`).',
    input: z.object({ owner: z.string().optional() }).optional().default({}),
  }),
  'stats.kpis': method<StoreKpis>()({
    description: 'Store KPIs as nooa computes them (store_kpis) for an owner scope.',
    input: z.object({ owner: scopeField }).optional().default({}),
  }),
  'stats.usage': method<{ rows: MemoryUsage[] }>()({
    description: 'The per-memory usage panel (per_memory_usage) for the given ids.',
    input: z.object({ ids: z.array(z.string().min(1).max(200)).min(1, 'give at least one id').max(10_000) }),
  }),
  'stats.rowsVsReads': method<RowsVsReads>()({
    description: 'Rows against reads per memory type: the share of the store each type holds and the share of reads it gets.',
    input: z.object({ owner: scopeField, include_archived: z.boolean().optional().default(false) }).optional().default({ include_archived: false }),
  }),
};
