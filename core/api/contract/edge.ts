/** Typed edges between memories: add one, link many sources to one target, remove one. */
import { z } from 'zod';
import { EDGE_TYPES } from '../../model/enums.js';
import { method } from '../define.js';
import { finiteNumber, idField } from './shared/fields.js';

export const edgeContract = {
  'edge.add': method<{ changed: boolean; change_id: number | null }>()({
    description: 'Add a typed edge src → dst (an existing edge keeps the larger weight).',
    input: z.object({ src: idField, dst: idField, type: z.enum(EDGE_TYPES), weight: finiteNumber.min(0).max(1).optional().default(1) }),
    mutates: true,
  }),
  'edge.addMany': method<{ changed: string[]; change_id: number | null }>()({
    description: 'Link every source to one target with the same edge type, as one change that one undo takes back. Returns the sources whose edge was new or heavier.',
    input: z.object({
      srcs: z.array(idField).min(1, 'srcs needs at least one memory id').max(1000, 'srcs takes at most 1000 ids; link in batches'),
      dst: idField,
      type: z.enum(EDGE_TYPES),
      weight: finiteNumber.min(0).max(1).optional().default(1),
    }),
    mutates: true,
  }),
  'edge.remove': method<{ changed: boolean; change_id: number | null }>()({
    description: 'Remove a typed edge src → dst.',
    input: z.object({ src: idField, dst: idField, type: z.enum(EDGE_TYPES) }),
    mutates: true,
  }),
};
