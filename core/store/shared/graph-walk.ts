/**
 * The typed edge graph as the workbench draws it, one walk for both adapters: either the
 * neighbourhood of one memory (a breadth-first walk over edges in both directions) or, without a
 * focus, the most important memories with the edges among them. The adapters supply the reads
 * (graph-query.ts for SQLite, pg/pg-graph.ts for PostgreSQL) and the filters' conditions
 * (graphNodeWhere, graphEdgeTypeWhere); the order of the walk and what the limit cuts are here.
 */
import { ownerClause } from './owner-sql.js';
import type { GraphEdgeRow, GraphFilter, GraphNodeRow, GraphResult } from '../port/memory-views.js';

/** What the walk reads from a store. */
export interface GraphReads {
  /** Rows for the given ids that pass the node filter (missing or filtered ids are absent). */
  nodesFor(ids: readonly string[], f: GraphFilter): Map<string, GraphNodeRow>;
  /** Edges touching any of `ids` (either end), of the allowed types. */
  edgesTouching(ids: readonly string[], f: GraphFilter): GraphEdgeRow[];
  /** Edges leaving any of `ids`, of the allowed types. */
  edgesFrom(ids: readonly string[], f: GraphFilter): GraphEdgeRow[];
  /** How many memories pass the node filter. */
  countNodes(f: GraphFilter): number;
  /** The `limit` most important memories passing the node filter, most important first, then by rowid. */
  topNodes(f: GraphFilter, limit: number): GraphNodeRow[];
}

/**
 * The node filter's conditions over memories aliased `m`, with `?` parameters (none: no condition).
 * `archived`: how the backend reads the archived flag of `m` (SQLite: the expression its views' indexes hold).
 */
export function graphNodeWhere(f: GraphFilter, archived = 'm.archived'): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!f.includeArchived) where.push(`${archived} = 0`);
  const oc = ownerClause(f.owner ?? null, 'm.owner');
  if (oc.sql !== '1') {
    where.push(oc.sql);
    params.push(...oc.params);
  }
  if (f.types?.length) {
    where.push(`m.type IN (${f.types.map(() => '?').join(',')})`);
    params.push(...f.types);
  }
  return { where, params };
}

/** The edge-type condition over edges aliased `e`, or null when every type is allowed. */
export function graphEdgeTypeWhere(f: GraphFilter): { sql: string; params: unknown[] } | null {
  if (!f.edgeTypes?.length) return null;
  return { sql: `e.type IN (${f.edgeTypes.map(() => '?').join(',')})`, params: [...f.edgeTypes] };
}

function edgeKey(e: GraphEdgeRow): string {
  return `${e.src}\u0000${e.dst}\u0000${e.type}`;
}

/** Breadth-first neighbourhood of `focus` up to `hops`, nearest nodes first, at most `limit` nodes. */
function neighbourhood(reads: GraphReads, focus: string, f: GraphFilter): GraphResult {
  const limit = f.limit ?? 2000;
  const hops = f.hops ?? 2;
  const start = reads.nodesFor([focus], { ...f, owner: null, types: [], includeArchived: true });
  const root = start.get(focus);
  if (!root) return { nodes: [], edges: [], reachable: 0, truncated: false };
  const depth = new Map<string, number>([[focus, 0]]);
  const nodes = new Map<string, GraphNodeRow>([[focus, root]]);
  let frontier = [focus];
  let reachable = 1;
  let truncated = false;
  for (let h = 1; h <= hops && frontier.length > 0; h++) {
    const candidates: string[] = [];
    const seen = new Set<string>();
    for (const e of reads.edgesTouching(frontier, f)) {
      for (const other of [e.src, e.dst]) {
        if (!depth.has(other) && !seen.has(other)) {
          seen.add(other);
          candidates.push(other);
        }
      }
    }
    const rows = reads.nodesFor(candidates, f);
    // Keep the walk deterministic and useful under the limit: most important first, then id.
    const next = [...rows.values()].sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : 1));
    reachable += next.length;
    const room = limit - nodes.size;
    if (next.length > room) truncated = true;
    frontier = [];
    for (const r of next.slice(0, Math.max(room, 0))) {
      depth.set(r.id, h);
      nodes.set(r.id, r);
      frontier.push(r.id);
    }
  }
  const edges = new Map<string, GraphEdgeRow>();
  for (const e of reads.edgesTouching([...nodes.keys()], f)) {
    if (nodes.has(e.src) && nodes.has(e.dst)) edges.set(edgeKey(e), e);
  }
  return { nodes: [...nodes.values()].map((n) => ({ ...n, depth: depth.get(n.id) ?? null })), edges: [...edges.values()], reachable, truncated };
}

/** Without a focus: the `limit` most important visible memories and the edges among them. */
function overview(reads: GraphReads, f: GraphFilter): GraphResult {
  const limit = f.limit ?? 2000;
  const reachable = reads.countNodes(f);
  const rows = reads.topNodes(f, limit);
  const ids = new Set(rows.map((r) => r.id));
  const edges = new Map<string, GraphEdgeRow>();
  for (const e of reads.edgesFrom([...ids], f)) if (ids.has(e.dst)) edges.set(edgeKey(e), e);
  return { nodes: rows.map((r) => ({ ...r, depth: null })), edges: [...edges.values()], reachable, truncated: reachable > rows.length };
}

export function walkGraph(reads: GraphReads, f: GraphFilter): GraphResult {
  return f.focus ? neighbourhood(reads, f.focus, f) : overview(reads, f);
}
