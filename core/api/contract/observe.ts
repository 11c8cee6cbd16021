/**
 * Observability: nooa's per-memory usage panel and store KPIs (field for field), and rows against
 * reads per memory type (how much of the store is ever read).
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { MemoryUsage, StoreKpis, RowsVsReadsRow, RowsVsReads } from '../../observe/types.js';
export type { MemoryUsage, StoreKpis, RowsVsReadsRow, RowsVsReads };
import { scopeField } from './recall.js';

export const observeContract = {
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
