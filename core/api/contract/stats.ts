import { z } from 'zod';
import { method } from '../define.js';

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
};
