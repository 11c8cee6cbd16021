/**
 * The belief layer's tables, behind one small interface: dimensions, the delta log, aliases and
 * rejected alias pairs, written once for both backends (port/store-sql.ts). Reads on a store whose
 * belief tables do not exist yet return nothing (a read never changes a nooa file); writes create
 * them. The search over delta evidence is each backend's own (the port's searchEvidence: SQLite's
 * FTS5 table, on PostgreSQL the same FTS5 over a copy of the evidence kept in the process). Rows come
 * back with their keys in the tables' column order: the journal compares alias images as text.
 */
import type { AliasRow, DeltaRow, DimensionRow, DistJson, NewDelta, RejectionRow } from '../port/belief-rows.js';
import type { StoreReader, StoreWriter } from '../port/port.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { intOf, intOrNull } from '../shared/sql-values.js';
import { paged, query } from '../shared/store-query.js';

type Row = Record<string, unknown>;
type ScanRow = Pick<DeltaRow, 'entity' | 'attribute' | 'value' | 't' | 'reliability' | 'surprise'>;

const DIM_COLS = ['entity', 'attribute', 'distribution', 't_last', 'deltas', 'mode'];
const DELTA_COLS =
  'id, entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at';
const NEW_DELTA_COLS = 'entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at';
const ALIAS_COLS = ['alias', 'canonical', 'divergence', 'shared', 'merged_at'];
const REJECTION_COLS = ['a', 'b', 'rejected_at'];

const json = (v: unknown) => JSON.parse(v as string) as DistJson;
const like = (search: string | undefined) => (search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '%');

function dimensionOf(r: Row): DimensionRow {
  return {
    entity: r['entity'] as string,
    attribute: r['attribute'] as string,
    distribution: json(r['distribution']),
    t_last: r['t_last'] as number,
    deltas: intOf(r['deltas'], 'mnemo_dimensions.deltas'),
    mode: r['mode'] as string | null,
  };
}

function deltaOf(r: Row): DeltaRow {
  return {
    id: intOf(r['id'], 'mnemo_deltas.id'),
    entity: r['entity'] as string,
    attribute: r['attribute'] as string,
    observed_entity: r['observed_entity'] as string,
    value: r['value'] as string,
    t: r['t'] as number,
    reliability: r['reliability'] as number | null,
    epsilon: r['epsilon'] as number,
    prior: json(r['prior']),
    posterior: json(r['posterior']),
    surprise: r['surprise'] as number,
    evidence: r['evidence'] as string,
    source: r['source'] as string,
    memory_id: r['memory_id'] as string | null,
    observation_id: r['observation_id'] as string | null,
    recorded_at: r['recorded_at'] as number,
  };
}

function aliasOf(r: Row): AliasRow {
  return {
    alias: r['alias'] as string,
    canonical: r['canonical'] as string,
    divergence: r['divergence'] as number | null,
    shared: intOrNull(r['shared'], 'mnemo_entity_aliases.shared'),
    merged_at: r['merged_at'] as number,
  };
}

const rejectionOf = (r: Row): RejectionRow => ({ a: r['a'] as string, b: r['b'] as string, rejected_at: r['rejected_at'] as number });

/** The belief tables' reads. */
export class BeliefReads {
  constructor(protected readonly store: Pick<StoreReader, 'sql' | 'searchEvidence'>) {}

  protected t(name: string): string {
    return this.store.sql.table(name);
  }

  protected rows(sql: string, params: readonly unknown[] = []): Row[] {
    return this.store.sql.all(query(sql, params));
  }

  protected row(sql: string, params: readonly unknown[] = []): Row | undefined {
    return this.store.sql.get(query(sql, params));
  }

  private n(sql: string, params: readonly unknown[] = []): number {
    return intOf(this.row(sql, params)?.['n'] ?? 0, 'a count');
  }

  /** True once the belief migration ran on this store. */
  exists(): boolean {
    return this.store.sql.hasTable('mnemo_deltas');
  }

  // ------------------------------------------------------------ dimensions

  /** `tablesExist` skips the schema check (callers inside a write that made the tables). */
  dimension(entity: string, attribute: string, tablesExist = false): DimensionRow | null {
    if (!tablesExist && !this.exists()) return null;
    const r = this.row(`SELECT ${DIM_COLS.join(', ')} FROM ${this.t('mnemo_dimensions')} WHERE entity = ? AND attribute = ?`, [entity, attribute]);
    return r ? dimensionOf(r) : null;
  }

  dimensionsOf(entity: string): DimensionRow[] {
    if (!this.exists()) return [];
    return this.rows(`SELECT ${DIM_COLS.join(', ')} FROM ${this.t('mnemo_dimensions')} WHERE entity = ? ORDER BY attribute`, [entity]).map(dimensionOf);
  }

  allDimensions(): DimensionRow[] {
    if (!this.exists()) return [];
    return this.rows(`SELECT ${DIM_COLS.join(', ')} FROM ${this.t('mnemo_dimensions')} ORDER BY entity, attribute`).map(dimensionOf);
  }

  /**
   * Entities with their dimension and delta counts, optionally filtered by a name substring (ASCII
   * letters case-folded, as SQLite's LIKE does).
   */
  entities(search: string | undefined, limit: number, offset: number): { entity: string; dimensions: number; deltas: number; t_last: number }[] {
    if (!this.exists()) return [];
    const rows = this.rows(
      `SELECT entity, count(*) AS dimensions, sum(deltas) AS deltas, max(t_last) AS t_last FROM ${this.t('mnemo_dimensions')}
       WHERE entity ${dialectOf(this.store.sql).like} ? ESCAPE '\\' GROUP BY entity ORDER BY entity LIMIT ? OFFSET ?`,
      [like(search), limit, offset],
    );
    return rows.map((r) => ({ entity: r['entity'] as string, dimensions: intOf(r['dimensions'], 'count(*)'), deltas: intOf(r['deltas'], 'sum(deltas)'), t_last: r['t_last'] as number }));
  }

  entityCount(search: string | undefined): number {
    if (!this.exists()) return 0;
    return this.n(`SELECT count(DISTINCT entity) AS n FROM ${this.t('mnemo_dimensions')} WHERE entity ${dialectOf(this.store.sql).like} ? ESCAPE '\\'`, [like(search)]);
  }

  // ------------------------------------------------------------ deltas

  delta(id: number): DeltaRow | null {
    if (!this.exists()) return null;
    const r = this.row(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE id = ?`, [id]);
    return r ? deltaOf(r) : null;
  }

  /** A dimension's deltas in log order (time, then arrival), optionally only those at or before `until`. */
  deltasOf(entity: string, attribute: string, until?: number): DeltaRow[] {
    if (!this.exists()) return [];
    const upTo = until === undefined ? '' : ' AND t <= ?';
    return this.rows(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE entity = ? AND attribute = ?${upTo} ORDER BY t, id`, until === undefined ? [entity, attribute] : [entity, attribute, until]).map(
      deltaOf,
    );
  }

  /** The last delta at or before t: what `query_at` reads. */
  lastDeltaAtOrBefore(entity: string, attribute: string, t: number): DeltaRow | null {
    if (!this.exists()) return null;
    const r = this.row(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE entity = ? AND attribute = ? AND t <= ? ORDER BY t DESC, id DESC LIMIT 1`, [entity, attribute, t]);
    return r ? deltaOf(r) : null;
  }

  /** An entity's timeline across attributes, newest first, paged. */
  timeline(entity: string, attribute: string | undefined, limit: number, offset: number, until?: number): DeltaRow[] {
    if (!this.exists()) return [];
    const parts = ['entity = ?'];
    const params: unknown[] = [entity];
    if (attribute !== undefined) {
      parts.push('attribute = ?');
      params.push(attribute);
    }
    if (until !== undefined) {
      parts.push('t <= ?');
      params.push(until);
    }
    return this.rows(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE ${parts.join(' AND ')} ORDER BY t DESC, id DESC LIMIT ? OFFSET ?`, [...params, limit, offset]).map(deltaOf);
  }

  /**
   * Every delta currently attributed to one of these entities, in log order (for replays after a
   * merge or its undo: callers pass both the old and the new canonical names).
   */
  deltasOfEntities(names: readonly string[]): DeltaRow[] {
    if (!this.exists() || names.length === 0) return [];
    const d = dialectOf(this.store.sql);
    return this.rows(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE ${d.inList('entity')} ORDER BY t, id`, [d.idsParam(names)]).map(deltaOf);
  }

  /** Lighter rows for whole-log scans (identity profiles, aggregation), in (entity, attribute, t, id) order, streamed. */
  *scan(): Generator<ScanRow> {
    if (!this.exists()) return;
    const rows = this.store.sql.iterate(paged(`SELECT entity, attribute, value, t, reliability, surprise, id FROM ${this.t('mnemo_deltas')} WHERE TRUE`, [], ['entity', 'attribute', 't', 'id']));
    for (const r of rows) yield { entity: r['entity'] as string, attribute: r['attribute'] as string, value: r['value'] as string, t: r['t'] as number, reliability: r['reliability'] as number | null, surprise: r['surprise'] as number };
  }

  deltasForMemory(memoryId: string): DeltaRow[] {
    if (!this.exists()) return [];
    return this.rows(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE memory_id = ? ORDER BY t, id`, [memoryId]).map(deltaOf);
  }

  /** A fingerprint of the log and the alias table: a plan made on one basis applies only to it. */
  basis(): string {
    if (!this.exists()) return '0:0:0:0';
    const d = this.row(`SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM ${this.t('mnemo_deltas')}`)!;
    const aliases = this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_entity_aliases')}`);
    const rejections = this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_alias_rejections')}`);
    return `${intOf(d['n'], 'count(*)')}:${intOf(d['m'], 'max(id)')}:${aliases}:${rejections}`;
  }

  counts(): { dimensions: number; deltas: number; entities: number; aliases: number } {
    if (!this.exists()) return { dimensions: 0, deltas: 0, entities: 0, aliases: 0 };
    return {
      dimensions: this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_dimensions')}`),
      deltas: this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_deltas')}`),
      entities: this.n(`SELECT count(DISTINCT entity) AS n FROM ${this.t('mnemo_dimensions')}`),
      aliases: this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_entity_aliases')}`),
    };
  }

  /** BM25 over delta evidence (lower is better); `match` is an FTS5 query string. */
  searchEvidence(match: string, limit: number): { id: number; score: number }[] {
    if (!this.exists() || match.trim() === '') return [];
    return this.store.searchEvidence(match, limit);
  }

  // ------------------------------------------------------------ aliases

  aliases(): AliasRow[] {
    if (!this.exists()) return [];
    return this.rows(`SELECT ${ALIAS_COLS.join(', ')} FROM ${this.t('mnemo_entity_aliases')} ORDER BY canonical, alias`).map(aliasOf);
  }

  alias(name: string): AliasRow | null {
    if (!this.exists()) return null;
    const r = this.row(`SELECT ${ALIAS_COLS.join(', ')} FROM ${this.t('mnemo_entity_aliases')} WHERE alias = ?`, [name]);
    return r ? aliasOf(r) : null;
  }

  rejections(): RejectionRow[] {
    if (!this.exists()) return [];
    return this.rows(`SELECT ${REJECTION_COLS.join(', ')} FROM ${this.t('mnemo_alias_rejections')} ORDER BY a, b`).map(rejectionOf);
  }

  rejection(a: string, b: string): RejectionRow | null {
    if (!this.exists()) return null;
    const r = this.row(`SELECT ${REJECTION_COLS.join(', ')} FROM ${this.t('mnemo_alias_rejections')} WHERE a = ? AND b = ?`, [a, b]);
    return r ? rejectionOf(r) : null;
  }
}

/** The belief tables' reads and writes; write inside the store's transaction. */
export class BeliefWrites extends BeliefReads {
  constructor(protected override readonly store: StoreWriter) {
    super(store);
  }

  private run(sql: string, params: readonly unknown[]): void {
    this.store.sql.run(query(sql, params));
  }

  private upsert(table: string, columns: readonly string[], key: readonly string[], values: readonly unknown[]): void {
    this.run(dialectOf(this.store.sql).upsert(this.t(table), columns, key), values);
  }

  /** Creates the tables when needed; call inside the write transaction. */
  prepareWrite(): void {
    this.store.ensureMnemo();
  }

  putDimension(d: DimensionRow): void {
    this.upsert('mnemo_dimensions', DIM_COLS, ['entity', 'attribute'], [d.entity, d.attribute, JSON.stringify(d.distribution), d.t_last, d.deltas, d.mode]);
  }

  deleteDimensionsOf(entity: string): void {
    this.run(`DELETE FROM ${this.t('mnemo_dimensions')} WHERE entity = ?`, [entity]);
  }

  insertDelta(d: NewDelta): number {
    const r = this.store.sql.get(
      query(`INSERT INTO ${this.t('mnemo_deltas')}(${NEW_DELTA_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, [
        d.entity,
        d.attribute,
        d.observed_entity,
        d.value,
        d.t,
        d.reliability,
        d.epsilon,
        JSON.stringify(d.prior),
        JSON.stringify(d.posterior),
        d.surprise,
        d.evidence,
        d.source,
        d.memory_id,
        d.observation_id,
        d.recorded_at,
      ]),
    );
    return intOf(r!['id'], 'mnemo_deltas.id');
  }

  /** Adds a range of new deltas to the evidence search (the port's indexEvidence). */
  indexEvidence(firstId: number, lastId: number): void {
    this.store.indexEvidence(firstId, lastId);
  }

  /** Rewrites what a replay derives (the dimension a delta belongs to and how it moved). */
  updateDerived(id: number, entity: string, prior: DistJson, posterior: DistJson, surprise: number): void {
    this.run(`UPDATE ${this.t('mnemo_deltas')} SET entity = ?, prior = ?, posterior = ?, surprise = ? WHERE id = ?`, [entity, JSON.stringify(prior), JSON.stringify(posterior), surprise, id]);
  }

  putAlias(a: AliasRow): void {
    this.upsert('mnemo_entity_aliases', ALIAS_COLS, ['alias'], [a.alias, a.canonical, a.divergence, a.shared, a.merged_at]);
  }

  deleteAlias(name: string): void {
    this.run(`DELETE FROM ${this.t('mnemo_entity_aliases')} WHERE alias = ?`, [name]);
  }

  putRejection(a: string, b: string, at: number): void {
    this.upsert('mnemo_alias_rejections', REJECTION_COLS, ['a', 'b'], [a, b, at]);
  }

  deleteRejection(a: string, b: string): void {
    this.run(`DELETE FROM ${this.t('mnemo_alias_rejections')} WHERE a = ? AND b = ?`, [a, b]);
  }
}

/** The belief tables of a store: read-only over a reader, read and write over a writer. */
export function beliefTables(store: StoreWriter): BeliefWrites;
export function beliefTables(store: StoreReader): BeliefReads;
export function beliefTables(store: StoreReader): BeliefReads {
  return isWriter(store) ? new BeliefWrites(store) : new BeliefReads(store);
}

const isWriter = (store: StoreReader): store is StoreWriter => 'run' in store.sql;
