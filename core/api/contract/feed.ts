/**
 * The change feed (docs/store-format.md): where it stands, how long it keeps its rows, and pruning
 * what the policy no longer keeps.
 */
import { z } from 'zod';
import { method } from '../define.js';
import type { FeedRetention, FeedStatus, PruneReport } from '../../store/port/port.js';

export type { FeedRetention, FeedStatus, PruneReport } from '../../store/port/port.js';

const days = (what: string) => z.number().int(`${what} is a whole number of days`).min(1, `${what} is at least 1 day`).max(36_500, `${what} is at most 36,500 days`);

export const feedContract = {
  'feed.status': method<FeedStatus>()({
    description:
      'Where the change feed stands: whether the store has one (a nooa-only store gets it on the first write), its last sequence number, its rows by op, its size on disk, what pruning removed (pruned_through; history_from and accesses_from: every change, and every access, after that instant is kept) and the retention policy.',
    input: z.object({}).optional().default({}),
  }),
  'feed.retention': method<FeedRetention>()({
    description:
      'Set how long the change feed keeps its rows: days for every row (default 90), access_days for access rows (default 14, never more than days). The next feed.prune applies it.',
    input: z
      .object({ days: days('days').optional(), access_days: days('access_days').optional() })
      .refine((v) => v.days !== undefined || v.access_days !== undefined, 'give days, access_days or both'),
    mutates: true,
  }),
  'feed.prune': method<PruneReport>()({
    description:
      'Remove the change-feed rows the retention policy no longer keeps, oldest first, a bounded batch per transaction with pauses between, so agents keep writing meanwhile.',
    input: z.object({}).optional().default({}),
    mutates: true,
  }),
};
