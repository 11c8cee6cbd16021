/**
 * The memory list on PostgreSQL (list-query.ts, list-ids.ts and facets.ts are SQLite's): the
 * filtered, sorted, paged list, the ids of every match, and the facet counts. The filters are the
 * shared builder's (list-filter.ts); the title and tags of a page are read from `data` in JS
 * (pg-json.ts), the tag filter and facet by SQL (pg-json-sql.ts). Same shapes and orders: text in
 * byte order, ties broken by rowid.
 */
import type { MemoryFacets } from '../port/port.js';
import { facetsOf, type FacetRow } from '../sqlite/facets.js';
import { listWhere, type ListDialect } from '../shared/list-filter.js';
import { SORT_SQL, type ListFilter, type ListRow } from '../sqlite/list-query.js';
import { documentOf, fieldOf } from './pg-json.js';
import { pgJsonField, pgJsonStrings } from './pg-json-sql.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

type Row = Record<string, unknown>;

export class PgList {
  constructor(private readonly conn: PgStoreConnection) {}

  private q(sql: string, params: readonly unknown[] = []): Row[] {
    return this.conn.db().query(sql, params);
  }

  private get memories(): string {
    return this.conn.table('memories');
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
    const group = (col: string) => facet(this.q(`SELECT coalesce(${col}, '') AS value, count(*) AS n FROM ${this.memories} ${where} GROUP BY ${col} ORDER BY n DESC, value ASC`));
    const tags = facet(
      this.q(
        `SELECT t.value, count(*) AS n FROM (SELECT data FROM ${this.memories} ${where} ORDER BY rowid DESC LIMIT $1) AS s, unnest(${pgJsonStrings('s.data', 'tags')}) AS t(value)
         GROUP BY t.value ORDER BY n DESC, t.value COLLATE "C" ASC LIMIT $2`,
        [tagSample, tagLimit],
      ),
    );
    const [c] = this.q(`SELECT count(*) FILTER (WHERE archived = 0) AS live, count(*) FILTER (WHERE archived = 1) AS archived FROM ${this.memories}`);
    return facetsOf(archived, tagSample, { types: group('type'), owners: group('owner'), statuses: group('status'), tags }, intOf(c!['live'], 'count(*)'), intOf(c!['archived'], 'count(*)'));
  }
}
