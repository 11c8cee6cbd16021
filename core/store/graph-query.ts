/**
 * The typed edge graph as the workbench draws it: either the neighbourhood of one memory (a
 * breadth-first walk over edges in both directions) or, without a focus, the most important
 * memories with the edges among them. Reads promoted columns only (plus the title), so a 2k-node
 * neighbourhood of a 100k store costs a few indexed queries and never parses a `data` payload.
 */
import { connectionOf } from './connection.js';
import type { OwnerScope } from '../model/owner.js';
import { ownerClause } from './owner-sql.js';
import type { DB } from './sqlite.js';
import type { RowSource } from './store-handle.js';
import { jsonField } from './json-sql.js';

export interface GraphFilter {
  focus?: string | null;
  hops?: number;
  owner?: OwnerScope;
  edgeTypes?: readonly string[];
  types?: readonly string[];
  includeArchived?: boolean;
  limit?: number;
}

export interface GraphNodeRow {
  id: string;
  type: string;
  owner: string;
  importance: number;
  strength: number;
  archived: number;
  title: string | null;
  content: string;
}

export interface GraphEdgeRow {
  src: string;
  dst: string;
  type: string;
  weight: number;
}

export interface GraphResult {
  nodes: (GraphNodeRow & { depth: number | null })[];
  edges: GraphEdgeRow[];
  /** How many nodes the request would have reached without the limit. */
  reachable: number;
  truncated: boolean;
}

const NODE_COLS = `m.id, m.type, m.owner, m.importance, m.strength, m.archived, ${jsonField('m.data', '$.title')} AS title, substr(m.content, 1, 200) AS content`;
const CHUNK = 900;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

function nodeWhere(f: GraphFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!f.includeArchived) where.push('m.archived = 0');
  const oc = ownerClause(f.owner ?? null, 'm.owner');
  if (oc.sql !== '1') {
    where.push(oc.sql);
    params.push(...oc.params);
  }
  if (f.types?.length) {
    where.push(`m.type IN (${f.types.map(() => '?').join(',')})`);
    params.push(...f.types);
  }
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

function edgeTypeSql(f: GraphFilter): { sql: string; params: unknown[] } {
  if (!f.edgeTypes?.length) return { sql: '1', params: [] };
  return { sql: `e.type IN (${f.edgeTypes.map(() => '?').join(',')})`, params: [...f.edgeTypes] };
}

/** Rows for the given ids that pass the node filter (missing or filtered ids are absent). */
function nodesFor(db: DB, ids: readonly string[], f: GraphFilter): Map<string, GraphNodeRow> {
  const w = nodeWhere(f);
  const out = new Map<string, GraphNodeRow>();
  for (const part of chunks(ids)) {
    const rows = db
      // CROSS JOIN keeps the id list as the outer loop, so each id is one primary-key lookup (the planner
      // would otherwise pick the archived index and scan the whole table).
      .prepare(`SELECT ${NODE_COLS} FROM json_each(?) AS j CROSS JOIN memories AS m ON m.id = j.value WHERE ${w.sql}`)
      .all(JSON.stringify(part), ...w.params) as GraphNodeRow[];
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** Edges touching any of `ids` (either end), of the allowed types. */
function edgesTouching(db: DB, ids: readonly string[], f: GraphFilter): GraphEdgeRow[] {
  const et = edgeTypeSql(f);
  const out: GraphEdgeRow[] = [];
  for (const part of chunks(ids)) {
    const json = JSON.stringify(part);
    out.push(
      ...(db
        .prepare(
          `SELECT e.src, e.dst, e.type, e.weight FROM json_each(?) AS j CROSS JOIN memory_edges AS e ON e.src = j.value WHERE ${et.sql}
           UNION
           SELECT e.src, e.dst, e.type, e.weight FROM json_each(?) AS j CROSS JOIN memory_edges AS e ON e.dst = j.value WHERE ${et.sql}`,
        )
        .all(json, ...et.params, json, ...et.params) as GraphEdgeRow[]),
    );
  }
  return out;
}

function edgeKey(e: GraphEdgeRow): string {
  return `${e.src}\u0000${e.dst}\u0000${e.type}`;
}

/** Breadth-first neighbourhood of `focus` up to `hops`, nearest nodes first, at most `limit` nodes. */
function neighbourhood(db: DB, focus: string, f: GraphFilter): GraphResult {
  const limit = f.limit ?? 2000;
  const hops = f.hops ?? 2;
  const start = nodesFor(db, [focus], { ...f, owner: null, types: [], includeArchived: true });
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
    for (const e of edgesTouching(db, frontier, f)) {
      for (const other of [e.src, e.dst]) {
        if (!depth.has(other) && !seen.has(other)) {
          seen.add(other);
          candidates.push(other);
        }
      }
    }
    const rows = nodesFor(db, candidates, f);
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
  for (const e of edgesTouching(db, [...nodes.keys()], f)) {
    if (nodes.has(e.src) && nodes.has(e.dst)) edges.set(edgeKey(e), e);
  }
  return { nodes: [...nodes.values()].map((n) => ({ ...n, depth: depth.get(n.id) ?? null })), edges: [...edges.values()], reachable, truncated };
}

/** Without a focus: the `limit` most important visible memories and the edges among them. */
function overview(db: DB, f: GraphFilter): GraphResult {
  const limit = f.limit ?? 2000;
  const w = nodeWhere(f);
  const reachable = (db.prepare(`SELECT count(*) AS n FROM memories AS m WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  // Sort and cut on plain columns first, then read the title only for the rows kept.
  const rows = db
    .prepare(
      `SELECT ${NODE_COLS} FROM memories AS m WHERE m.rowid IN (SELECT m.rowid FROM memories AS m WHERE ${w.sql} ORDER BY m.importance DESC, m.rowid ASC LIMIT ?)
       ORDER BY m.importance DESC, m.rowid ASC`,
    )
    .all(...w.params, limit) as GraphNodeRow[];
  const ids = new Set(rows.map((r) => r.id));
  const edges = new Map<string, GraphEdgeRow>();
  const et = edgeTypeSql(f);
  for (const part of chunks([...ids])) {
    const found = db
      .prepare(`SELECT e.src, e.dst, e.type, e.weight FROM json_each(?) AS j CROSS JOIN memory_edges AS e ON e.src = j.value WHERE ${et.sql}`)
      .all(JSON.stringify(part), ...et.params) as GraphEdgeRow[];
    for (const e of found) if (ids.has(e.dst)) edges.set(edgeKey(e), e);
  }
  return { nodes: rows.map((r) => ({ ...r, depth: null })), edges: [...edges.values()], reachable, truncated: reachable > rows.length };
}

export function graphView(source: RowSource, f: GraphFilter): GraphResult {
  const db = connectionOf(source);
  return f.focus ? neighbourhood(db, f.focus, f) : overview(db, f);
}
