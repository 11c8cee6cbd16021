import { z } from 'zod';
import { method } from '../define.js';
import { idField } from './memory.js';

export interface Facet {
  value: string;
  n: number;
}

export interface MemoryFacets {
  types: Facet[];
  owners: Facet[];
  statuses: Facet[];
  tags: Facet[];
  /** Rows the tag counts cover when fewer than all (the most recently added); null = every row. */
  tags_sampled: number | null;
  archived: number;
  live: number;
}

const tagList = z.array(z.string().min(1, 'tags cannot be empty strings').max(200)).max(50);

export const tagsContract = {
  'memory.tag': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Add and/or remove tags on many memories as one journalled, undoable change.',
    input: z.object({
      ids: z.array(idField).min(1, 'give at least one id').max(100_000),
      add: tagList.optional().default([]),
      remove: tagList.optional().default([]),
    }),
    mutates: true,
  }),
  'memory.facets': method<MemoryFacets>()({
    description: 'Value counts for the memory list filters: types, exact owners, todo statuses, tags (most used first).',
    input: z
      .object({ archived: z.enum(['live', 'archived', 'all']).optional().default('live'), tag_limit: z.number().int().min(1).max(5000).optional().default(200) })
      .optional()
      .default({ archived: 'live', tag_limit: 200 }),
  }),
};
