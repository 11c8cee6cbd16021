/** The spread paths of one recall, as the nodes and edges to highlight on the graph. */
import type { ExplainResult } from '../../core/api/contract/index.js';

export interface Highlight {
  nodes: string[];
  /** Edges as `src|dst|type`. */
  edges: string[];
}

export const edgeId = (e: { src: string; dst: string; type: string }) => `${e.src}|${e.dst}|${e.type}`;

/** Every ranked memory, and every edge that carried activation into one, with its source. */
export function recallHighlight(result: Pick<ExplainResult, 'rows' | 'paths'>): Highlight {
  const nodes = new Set(result.rows.map((r) => r.id));
  const edges = new Set<string>();
  for (const [target, paths] of Object.entries(result.paths)) {
    for (const p of paths) {
      nodes.add(target);
      nodes.add(p.from);
      // Activation can flow against an edge's direction; the drawn edge is whichever exists.
      edges.add(edgeId({ src: p.from, dst: target, type: p.edge_type }));
      edges.add(edgeId({ src: target, dst: p.from, type: p.edge_type }));
    }
  }
  return { nodes: [...nodes], edges: [...edges] };
}
