/**
 * The memory list on PostgreSQL (list-query.ts, list-ids.ts and facets.ts are SQLite's): the
 * filtered, sorted, paged list, the ids of every match, and the facet counts. The filters are the
 * shared builder's (list-filter.ts); the title and tags of a page are read from `data` in JS
 * (pg-json.ts), the tag filter and facet by SQL (pg-json-sql.ts). Same shapes and orders: text in
 * byte order, ties broken by rowid.
 */
import type { MemoryFacets } from '../port/port.js';
import { facetRows, facetsOf } from '../sqlite/facets.js';
import { listWhere, type ListDialect } from '../shared/list-filter.js';
import { SORT_SQL } from '../sqlite/list-query.js';
import type { ListFilter } from '../port/memory-views.js';
import { documentOf, fieldOf } from '../shared/json-fields.js';
import { pgJsonField, pgJsonStrings } from './pg-json-sql.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { FacetRow, ListRow } from '../port/memory-views.js';

type Row = Record<string, unknown>;

export class PgList {
  constructor(private readonly conn: PgStoreConnection) {}

  private q(sql: string, params: readonly unknown[] = []): Row[] {
    return this.conn.read().query(sql, params);
  }

  /** Named `memories` whatever stands for the table (the filters say `memories.id`): a past store's may be a function's call. */
  private get memories(): string {
    return `${this.conn.table('memories')} AS memories`;
  }

  /** The filter as `WHERE …` with `$n` placeholders, and its parameters. */
  private where(f: ListFilter): { sql: string; params: unknown[] } {
    const dialect: ListDialect = {
      archivedColumn: () => 'archived',
      idIn: 'id = ANY(?::text[])',
      // PostgreSQL text cannot hold NUL, and refuses a parameter with one: such an id names no
      // memory, so it is left out (the list's text filter sends one to match nothing).
      idsParam: (ids) => ids.filter((id) => !id.includes('\u0000')),
      hasTag: `? = ANY(${pgJsonStrings('memories.data', 'tags')})`,
      title: pgJsonField('data', 'title'),
      like: 'ILIKE',
      edges: this.conn.table('memory_edges'),
      larger: 'greatest',
    };
    const { where, params } = listWhere(f, dialect);
    return { sql: where.length ? numbered(`WHERE ${where.join(' AND ')}`) : '', params };
  }

  private total(w: { sql: string; params: unknown[] }): number {
    return intOf(this.q(`SELECT count(*) AS n FROM ${this.memories} ${w.sql}`, w.params)[0]!['n'], 'count(*)');
  }

  listMemories(f: ListFilter): { total: number; rows: ListRow[] } {
    const w = this.where(f);
    const sort = SORT_SQL[f.sort ?? 'rowid'] ?? 'rowid';
    const dir = f.dir === 'desc' ? 'DESC' : 'ASC';
    const n = w.params.length;
    const rows = this.q(
      `SELECT id, type, data, substr(content, 1, 300) AS content, owner, status, archived,
              importance, salience, strength, access_count, created_at, last_accessed
       FROM ${this.memories} ${w.sql} ORDER BY ${sort} ${dir}, rowid ${dir} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...w.params, f.limit ?? 200, f.offset ?? 0],
    );
    return {
      total: this.total(w),
      rows: rows.map((r) => {
        const doc = documentOf(r['data'] as string);
        return {
          id: r['id'] as string,
          type: r['type'] as string,
          title: fieldOf(doc, 'title'),
          content: r['content'] as string,
          owner: r['owner'] as string,
          status: r['status'] as string | null,
          archived: intOf(r['archived'], 'memories.archived'),
          importance: r['importance'] as number,
          salience: r['salience'] as number,
          strength: intOf(r['strength'], 'memories.strength'),
          access_count: intOf(r['access_count'], 'memories.access_count'),
          created_at: r['created_at'] as number,
          last_accessed: r['last_accessed'] as number,
          tags: fieldOf(doc, 'tags'),
        };
      }),
    };
  }

  listIds(f: ListFilter, max: number): { total: number; ids: string[] } {
    const w = this.where(f);
    const ids = this.q(`SELECT id FROM ${this.memories} ${w.sql} ORDER BY rowid LIMIT $${w.params.length + 1}`, [...w.params, max]).map((r) => r['id'] as string);
    return { total: this.total(w), ids };
  }

  /** facets.ts's counts; tags over the `tagSample` most recently added rows, as there. */
  memoryFacets(archived: 'live' | 'archived' | 'all', tagLimit: number, tagSample = 10_000): MemoryFacets {
    const where = archived === 'live' ? 'WHERE archived = 0' : archived === 'archived' ? 'WHERE archived = 1' : '';
    const facet = (rows: Row[]): FacetRow[] => rows.map((r) => ({ value: r['value'] as string, n: intOf(r['n'], 'count(*)') }));
    // The three columns' counts, and live and archived, in one pass over the table (four were seconds at a million memories).
    const sets = this.q(
      `SELECT grouping(type) = 0 AS by_type, grouping(owner) = 0 AS by_owner, grouping(status) = 0 AS by_status, type, owner, status, archived, count(*) AS n
       FROM ${this.memories} GROUP BY GROUPING SETS ((type, archived), (owner, archived), (status, archived), (archived))`,
    );
    const wanted = (r: Row) => archived === 'all' || intOf(r['archived'], 'archived') === (archived === 'live' ? 0 : 1);
    const group = (col: 'type' | 'owner' | 'status'): FacetRow[] => {
      const byKey = new Map<string | null, number>();
      for (const r of sets) {
        if (r[`by_${col}`] !== true || !wanted(r)) continue;
        const k = r[col] as string | null;
        byKey.set(k, (byKey.get(k) ?? 0) + intOf(r['n'], 'count(*)'));
      }
      return facetRows([...byKey].map(([k, n]) => ({ k, n })));
    };
    const total = (value: 0 | 1) => sets.filter((r) => r['by_type'] === false && r['by_owner'] === false && r['by_status'] === false && intOf(r['archived'], 'archived') === value).reduce((s, r) => s + intOf(r['n'], 'count(*)'), 0);
    const tags = facet(
      this.q(
        `SELECT t.value, count(*) AS n FROM (SELECT data FROM ${this.memories} ${where} ORDER BY rowid DESC LIMIT $1) AS s, unnest(${pgJsonStrings('s.data', 'tags')}) AS t(value)
         GROUP BY t.value ORDER BY n DESC, t.value COLLATE "C" ASC LIMIT $2`,
        [tagSample, tagLimit],
      ),
    );
    return facetsOf(archived, tagSample, { types: group('type'), owners: group('owner'), statuses: group('status'), tags }, total(0), total(1));
  }
}
