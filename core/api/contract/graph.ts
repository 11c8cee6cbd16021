import { z } from 'zod';
import { EDGE_TYPES, MEMORY_TYPES } from '../../model/enums.js';
import { method } from '../define.js';
import { atField } from './shared/fields.js';

export interface GraphNode {
  id: string;
  type: string;
  owner: string;
  importance: number;
  strength: number;
  archived: boolean;
  head: string;
  /** Hops from the focus (0 = the focus itself); null in the overview. */
  depth: number | null;
}

export interface GraphEdge {
  src: string;
  dst: string;
  type: string;
  weight: number;
}

export interface GraphView {
  focus: string | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nodes the request reaches without the limit. */
  reachable: number;
  truncated: boolean;
}

export const graphViewInput = z.object({
  focus: z.string().min(1).max(200).optional(),
  hops: z.number().int().min(0, 'hops must be 0 or more').max(12, 'hops must be at most 12').optional().default(2),
  owner: z.string().max(200).optional(),
  edge_types: z.array(z.enum(EDGE_TYPES)).optional(),
  types: z.array(z.enum(MEMORY_TYPES)).optional(),
  include_archived: z.boolean().optional().default(false),
  limit: z.number().int().min(1).max(20_000, 'limit must be at most 20000 nodes').optional().default(2000),
  /** The graph as it was at this instant (epoch seconds). */
  at: atField.optional(),
});

export const graphContract = {
  'graph.view': method<GraphView>()({
    description:
      'The typed edge graph: the neighbourhood of `focus` (breadth-first over edges in both directions, up to `hops`), or without a focus the most important memories and the edges among them. Filters: owner scope, edge types, memory types; `at` shows the graph as it was at that instant.',
    input: graphViewInput,
  }),
};
