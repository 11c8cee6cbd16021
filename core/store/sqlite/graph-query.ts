/**
 * The graph view's reads on SQLite (graph-walk.ts walks them; pg/pg-graph.ts is PostgreSQL's).
 * Promoted columns only (plus the title), so a 2k-node neighbourhood of a 100k store costs a few
 * indexed queries and never parses a `data` payload.
 */
import { connectionOf } from './connection.js';
import { graphEdgeTypeWhere, graphNodeWhere, walkGraph, type GraphReads } from '../shared/graph-walk.js';
import type { DB } from './sqlite.js';
import type { RowSource } from '../shared/store-handle.js';
import { jsonField } from '../shared/json-sql.js';
import { archivedExpression } from './view-indexes.js';
import type { GraphEdgeRow, GraphFilter, GraphNodeRow, GraphResult } from '../port/memory-views.js';


const NODE_COLS = `m.id, m.type, m.owner, m.importance, m.strength, m.archived, ${jsonField('m.data', '$.title')} AS title, substr(m.content, 1, 200) AS content`;
const CHUNK = 900;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

function nodeWhere(f: GraphFilter): { sql: string; params: unknown[] } {
  // The overview's order is one of the views' indexes (view-indexes.ts), on the expression it holds.
  const { where, params } = graphNodeWhere(f, archivedExpression('m.'));
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

function edgeTypeSql(f: GraphFilter): { sql: string; params: unknown[] } {
  return graphEdgeTypeWhere(f) ?? { sql: '1', params: [] };
}

function sqliteGraphReads(db: DB): GraphReads {
  return {
    nodesFor(ids, f) {
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
    },
    edgesTouching(ids, f) {
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
    },
    edgesFrom(ids, f) {
      const et = edgeTypeSql(f);
      const out: GraphEdgeRow[] = [];
      for (const part of chunks(ids)) {
        out.push(
          ...(db
            .prepare(`SELECT e.src, e.dst, e.type, e.weight FROM json_each(?) AS j CROSS JOIN memory_edges AS e ON e.src = j.value WHERE ${et.sql}`)
            .all(JSON.stringify(part), ...et.params) as GraphEdgeRow[]),
        );
      }
      return out;
    },
    countNodes(f) {
      const w = nodeWhere(f);
      return (db.prepare(`SELECT count(*) AS n FROM memories AS m WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
    },
    topNodes(f, limit) {
      const w = nodeWhere(f);
      // Sort and cut on plain columns first, then read the title only for the rows kept.
      return db
        .prepare(
          `SELECT ${NODE_COLS} FROM memories AS m WHERE m.rowid IN (SELECT m.rowid FROM memories AS m WHERE ${w.sql} ORDER BY m.importance DESC, m.rowid ASC LIMIT ?)
           ORDER BY m.importance DESC, m.rowid ASC`,
        )
        .all(...w.params, limit) as GraphNodeRow[];
    },
  };
}

export function graphView(source: RowSource, f: GraphFilter): GraphResult {
  return walkGraph(sqliteGraphReads(connectionOf(source)), f);
}
