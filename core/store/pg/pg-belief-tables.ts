/**
 * The belief layer's tables on PostgreSQL (port.ts, BeliefWrites): the statements of SQLite's
 * belief-tables.ts, answering the same rows in the same order. The schema `mnemo copy` makes holds
 * the tables (text COLLATE "C" sorts as SQLite's BINARY); what differs is spelled out here:
 * - a name search (`entities`) is ILIKE, because SQLite's LIKE ignores the case of ASCII letters
 *   and, under the "C" collation, ILIKE folds those letters only, as SQLite does;
 * - counts and sums come back from PostgreSQL as text and are turned into numbers;
 * - the evidence search runs SQLite's FTS5 over a copy of the evidence kept in this process
 *   (pg-evidence-mirror.ts), so it gives SQLite's matches and BM25 scores; `indexEvidence` has
 *   nothing to do, the copy catches up when it is searched.
 */
import type { AliasRow, BeliefWrites, DeltaRow, DimensionRow, DistJson, NewDelta, RejectionRow } from '../port/port.js';
import type { StoreHandle } from '../shared/store-handle.js';
import type { PgEvidenceMirror } from './pg-evidence-mirror.js';
import { intOf, intOrNull } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

type Row = Record<string, unknown>;
type ScanRow = Pick<DeltaRow, 'entity' | 'attribute' | 'value' | 't' | 'reliability' | 'surprise'>;

const DIM_COLS = 'entity, attribute, distribution, t_last, deltas, mode';
const DELTA_COLS =
  'id, entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at';
const ALIAS_COLS = 'alias, canonical, divergence, shared, merged_at';
/** Rows a whole-log scan reads per round trip. */
const SCAN_PAGE = 5000;

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

/** A delta with its keys in SQLite's column order. */
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

/** An alias with its keys in SQLite's column order (the journal compares images as text). */
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

export class PgBeliefTables implements BeliefWrites {
  constructor(
    private readonly conn: PgStoreConnection,
    private readonly store: StoreHandle,
    private readonly evidence: PgEvidenceMirror,
  ) {}

  private q(sql: string, params: readonly unknown[] = []): Row[] {
    return this.conn.db().query(sql, params);
  }

  private t(name: string): string {
    return this.conn.table(name);
  }

  private n(sql: string, params: readonly unknown[] = []): number {
    return intOf(this.q(sql, params)[0]!['n'], 'a count');
  }

  /** A Mnemo store on PostgreSQL has every table of this build (checked at open); a nooa-only one has none of these. */
  exists(): boolean {
    return this.store.hasMnemo();
  }

  prepareWrite(): void {
    this.store.ensureMnemo();
  }

  // ------------------------------------------------------------ dimensions

  dimension(entity: string, attribute: string, tablesExist = false): DimensionRow | null {
    if (!tablesExist && !this.exists()) return null;
    const [r] = this.q(`SELECT ${DIM_COLS} FROM ${this.t('mnemo_dimensions')} WHERE entity = $1 AND attribute = $2`, [entity, attribute]);
    return r ? dimensionOf(r) : null;
  }

  dimensionsOf(entity: string): DimensionRow[] {
    if (!this.exists()) return [];
    return this.q(`SELECT ${DIM_COLS} FROM ${this.t('mnemo_dimensions')} WHERE entity = $1 ORDER BY attribute`, [entity]).map(dimensionOf);
  }

  allDimensions(): DimensionRow[] {
    if (!this.exists()) return [];
    return this.q(`SELECT ${DIM_COLS} FROM ${this.t('mnemo_dimensions')} ORDER BY entity, attribute`).map(dimensionOf);
  }

  putDimension(d: DimensionRow): void {
    this.q(
      `INSERT INTO ${this.t('mnemo_dimensions')}(${DIM_COLS}) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (entity, attribute) DO UPDATE SET distribution = excluded.distribution, t_last = excluded.t_last, deltas = excluded.deltas, mode = excluded.mode`,
      [d.entity, d.attribute, JSON.stringify(d.distribution), d.t_last, d.deltas, d.mode],
    );
  }

  deleteDimensionsOf(entity: string): void {
    this.q(`DELETE FROM ${this.t('mnemo_dimensions')} WHERE entity = $1`, [entity]);
  }

  entities(search: string | undefined, limit: number, offset: number): { entity: string; dimensions: number; deltas: number; t_last: number }[] {
    if (!this.exists()) return [];
    const rows = this.q(
      `SELECT entity, count(*) AS dimensions, sum(deltas) AS deltas, max(t_last) AS t_last FROM ${this.t('mnemo_dimensions')}
       WHERE entity ILIKE $1 GROUP BY entity ORDER BY entity LIMIT $2 OFFSET $3`,
      [like(search), limit, offset],
    );
    return rows.map((r) => ({
      entity: r['entity'] as string,
      dimensions: intOf(r['dimensions'], 'count(*)'),
      deltas: intOf(r['deltas'], 'sum(deltas)'),
      t_last: r['t_last'] as number,
    }));
  }

  entityCount(search: string | undefined): number {
    if (!this.exists()) return 0;
    return this.n(`SELECT count(DISTINCT entity) AS n FROM ${this.t('mnemo_dimensions')} WHERE entity ILIKE $1`, [like(search)]);
  }

  // ------------------------------------------------------------ deltas

  insertDelta(d: NewDelta): number {
    const [r] = this.q(
      `INSERT INTO ${this.t('mnemo_deltas')}(entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [d.entity, d.attribute, d.observed_entity, d.value, d.t, d.reliability, d.epsilon, JSON.stringify(d.prior), JSON.stringify(d.posterior), d.surprise, d.evidence, d.source, d.memory_id, d.observation_id, d.recorded_at],
    );
    return intOf(r!['id'], 'mnemo_deltas.id');
  }

  /** Nothing to write: the evidence copy reads new deltas when it is next searched. */
  indexEvidence(_firstId: number, _lastId: number): void {}

  updateDerived(id: number, entity: string, prior: DistJson, posterior: DistJson, surprise: number): void {
    this.q(`UPDATE ${this.t('mnemo_deltas')} SET entity = $1, prior = $2, posterior = $3, surprise = $4 WHERE id = $5`, [entity, JSON.stringify(prior), JSON.stringify(posterior), surprise, id]);
  }

  delta(id: number): DeltaRow | null {
    if (!this.exists()) return null;
    const [r] = this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE id = $1`, [id]);
    return r ? deltaOf(r) : null;
  }

  deltasOf(entity: string, attribute: string, until?: number): DeltaRow[] {
    if (!this.exists()) return [];
    const upTo = until === undefined ? '' : ' AND t <= $3';
    return this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE entity = $1 AND attribute = $2${upTo} ORDER BY t, id`, until === undefined ? [entity, attribute] : [entity, attribute, until]).map(
      deltaOf,
    );
  }

  lastDeltaAtOrBefore(entity: string, attribute: string, t: number): DeltaRow | null {
    if (!this.exists()) return null;
    const [r] = this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE entity = $1 AND attribute = $2 AND t <= $3 ORDER BY t DESC, id DESC LIMIT 1`, [entity, attribute, t]);
    return r ? deltaOf(r) : null;
  }

  timeline(entity: string, attribute: string | undefined, limit: number, offset: number, until?: number): DeltaRow[] {
    if (!this.exists()) return [];
    const params: unknown[] = [entity];
    const parts = ['entity = $1'];
    if (attribute !== undefined) parts.push(`attribute = $${params.push(attribute)}`);
    if (until !== undefined) parts.push(`t <= $${params.push(until)}`);
    const page = `LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`;
    return this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE ${parts.join(' AND ')} ORDER BY t DESC, id DESC ${page}`, params).map(deltaOf);
  }

  deltasOfEntities(names: readonly string[]): DeltaRow[] {
    if (!this.exists() || names.length === 0) return [];
    return this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE entity = ANY($1::text[]) ORDER BY t, id`, [[...names]]).map(deltaOf);
  }

  /** The whole log in (entity, attribute, t, id) order, a page per round trip, each page after the last row of the one before. */
  *scan(): Generator<ScanRow> {
    if (!this.exists()) return;
    const cols = `entity, attribute, value, t, reliability, surprise, id FROM ${this.t('mnemo_deltas')}`;
    let rows = this.q(`SELECT ${cols} ORDER BY entity, attribute, t, id LIMIT $1`, [SCAN_PAGE]);
    while (rows.length > 0) {
      for (const r of rows) yield { entity: r['entity'] as string, attribute: r['attribute'] as string, value: r['value'] as string, t: r['t'] as number, reliability: r['reliability'] as number | null, surprise: r['surprise'] as number };
      if (rows.length < SCAN_PAGE) return;
      const last = rows[rows.length - 1]!;
      rows = this.q(`SELECT ${cols} WHERE (entity, attribute, t, id) > ($1, $2, $3, $4) ORDER BY entity, attribute, t, id LIMIT $5`, [last['entity'], last['attribute'], last['t'], last['id'], SCAN_PAGE]);
    }
  }

  deltasForMemory(memoryId: string): DeltaRow[] {
    if (!this.exists()) return [];
    return this.q(`SELECT ${DELTA_COLS} FROM ${this.t('mnemo_deltas')} WHERE memory_id = $1 ORDER BY t, id`, [memoryId]).map(deltaOf);
  }

  basis(): string {
    if (!this.exists()) return '0:0:0:0';
    const [d] = this.q(`SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM ${this.t('mnemo_deltas')}`);
    const aliases = this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_entity_aliases')}`);
    const rejections = this.n(`SELECT count(*) AS n FROM ${this.t('mnemo_alias_rejections')}`);
    return `${intOf(d!['n'], 'count(*)')}:${intOf(d!['m'], 'max(id)')}:${aliases}:${rejections}`;
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

  /** BM25 over delta evidence, as on SQLite (`match` is an FTS5 query string). */
  searchEvidence(match: string, limit: number): { id: number; score: number }[] {
    if (!this.exists() || match.trim() === '') return [];
    return this.evidence.search(match, limit);
  }

  // ------------------------------------------------------------ aliases

  aliases(): AliasRow[] {
    if (!this.exists()) return [];
    return this.q(`SELECT ${ALIAS_COLS} FROM ${this.t('mnemo_entity_aliases')} ORDER BY canonical, alias`).map(aliasOf);
  }

  alias(name: string): AliasRow | null {
    if (!this.exists()) return null;
    const [r] = this.q(`SELECT ${ALIAS_COLS} FROM ${this.t('mnemo_entity_aliases')} WHERE alias = $1`, [name]);
    return r ? aliasOf(r) : null;
  }

  putAlias(a: AliasRow): void {
    this.q(
      `INSERT INTO ${this.t('mnemo_entity_aliases')}(${ALIAS_COLS}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (alias) DO UPDATE SET canonical = excluded.canonical, divergence = excluded.divergence, shared = excluded.shared, merged_at = excluded.merged_at`,
      [a.alias, a.canonical, a.divergence, a.shared, a.merged_at],
    );
  }

  deleteAlias(name: string): void {
    this.q(`DELETE FROM ${this.t('mnemo_entity_aliases')} WHERE alias = $1`, [name]);
  }

  rejections(): RejectionRow[] {
    if (!this.exists()) return [];
    return this.q(`SELECT a, b, rejected_at FROM ${this.t('mnemo_alias_rejections')} ORDER BY a, b`).map(rejectionOf);
  }

  rejection(a: string, b: string): RejectionRow | null {
    if (!this.exists()) return null;
    const [r] = this.q(`SELECT a, b, rejected_at FROM ${this.t('mnemo_alias_rejections')} WHERE a = $1 AND b = $2`, [a, b]);
    return r ? rejectionOf(r) : null;
  }

  putRejection(a: string, b: string, at: number): void {
    this.q(`INSERT INTO ${this.t('mnemo_alias_rejections')}(a, b, rejected_at) VALUES ($1, $2, $3) ON CONFLICT (a, b) DO UPDATE SET rejected_at = excluded.rejected_at`, [a, b, at]);
  }

  deleteRejection(a: string, b: string): void {
    this.q(`DELETE FROM ${this.t('mnemo_alias_rejections')} WHERE a = $1 AND b = $2`, [a, b]);
  }
}
