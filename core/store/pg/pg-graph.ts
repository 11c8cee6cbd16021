/**
 * The graph view's reads on PostgreSQL (graph-query.ts is SQLite's; graph-walk.ts walks them, the
 * same walk on both). The title is read from `data` in JS (pg-json.ts); an id list is one array
 * parameter. Edges touching a set come in (src, dst, type, weight) order, the order SQLite's UNION
 * gives them.
 */
import { graphEdgeTypeWhere, graphNodeWhere, walkGraph, type GraphEdgeRow, type GraphFilter, type GraphNodeRow, type GraphReads, type GraphResult } from '../shared/graph-walk.js';
import { documentOf, fieldOf } from './pg-json.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

type Row = Record<string, unknown>;

const NODE_COLS = 'm.id, m.type, m.owner, m.importance, m.strength, m.archived, m.data, substr(m.content, 1, 200) AS content';

function nodeOf(r: Row): GraphNodeRow {
  return {
    id: r['id'] as string,
    type: r['type'] as string,
    owner: r['owner'] as string,
    importance: r['importance'] as number,
    strength: intOf(r['strength'], 'memories.strength'),
    archived: intOf(r['archived'], 'memories.archived'),
    title: fieldOf(documentOf(r['data'] as string), 'title'),
    content: r['content'] as string,
  };
}

function edgeOf(r: Row): GraphEdgeRow {
  return { src: r['src'] as string, dst: r['dst'] as string, type: r['type'] as string, weight: r['weight'] as number };
}

export class PgGraph {
  constructor(private readonly conn: PgStoreConnection) {}

  private q(sql: string, params: readonly unknown[] = []): Row[] {
    return this.conn.db().query(sql, params);
  }

  graphView(f: GraphFilter): GraphResult {
    return walkGraph(this.reads(), f);
  }

  private reads(): GraphReads {
    const memories = this.conn.table('memories');
    const edges = this.conn.table('memory_edges');
    /** The node filter after `first` conditions of the caller's, as ` AND …`, numbered from `$first`. */
    const nodeAnd = (f: GraphFilter, first: number) => {
      const { where, params } = graphNodeWhere(f);
      return { sql: where.length ? numbered(` AND ${where.join(' AND ')}`, first) : '', params };
    };
    const typeAnd = (f: GraphFilter, first: number) => {
      const et = graphEdgeTypeWhere(f);
      return et ? { sql: numbered(` AND ${et.sql}`, first), params: et.params } : { sql: '', params: [] };
    };
    return {
      nodesFor: (ids, f) => {
        const out = new Map<string, GraphNodeRow>();
        if (ids.length === 0) return out;
        const w = nodeAnd(f, 2);
        for (const r of this.q(`SELECT ${NODE_COLS} FROM ${memories} m WHERE m.id = ANY($1::text[])${w.sql}`, [[...ids], ...w.params])) {
          const node = nodeOf(r);
          out.set(node.id, node);
        }
        return out;
      },
      edgesTouching: (ids, f) => {
        if (ids.length === 0) return [];
        const t = typeAnd(f, 2);
        return this.q(
          `SELECT e.src, e.dst, e.type, e.weight FROM ${edges} e WHERE e.src = ANY($1::text[])${t.sql}
           UNION
           SELECT e.src, e.dst, e.type, e.weight FROM ${edges} e WHERE e.dst = ANY($1::text[])${t.sql}
           ORDER BY 1, 2, 3, 4`,
          [[...ids], ...t.params],
        ).map(edgeOf);
      },
      edgesFrom: (ids, f) => {
        if (ids.length === 0) return [];
        const t = typeAnd(f, 2);
        // In the order of the ids asked for, as SQLite's walk of its id list gives them.
        return this.q(
          `SELECT e.src, e.dst, e.type, e.weight FROM unnest($1::text[]) WITH ORDINALITY AS j(id, n) JOIN ${edges} e ON e.src = j.id WHERE TRUE${t.sql} ORDER BY j.n, e.rowid`,
          [[...ids], ...t.params],
        ).map(edgeOf);
      },
      countNodes: (f) => {
        const w = nodeAnd(f, 1);
        return intOf(this.q(`SELECT count(*) AS n FROM ${memories} m WHERE TRUE${w.sql}`, w.params)[0]!['n'], 'count(*)');
      },
      topNodes: (f, limit) => {
        const w = nodeAnd(f, 1);
        return this.q(`SELECT ${NODE_COLS} FROM ${memories} m WHERE TRUE${w.sql} ORDER BY m.importance DESC, m.rowid ASC LIMIT $${w.params.length + 1}`, [...w.params, limit]).map(nodeOf);
      },
    };
  }
}
