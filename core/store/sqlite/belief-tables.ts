/**
 * The SQL of the belief layer, behind one small interface: dimensions, the delta log, aliases,
 * rejected alias pairs and the FTS5 index over delta evidence. Reads on a store whose belief tables
 * do not exist yet return nothing (a read never changes a nooa file); writes create them.
 */
import { connectionOf, statementOf } from './connection.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { cachedStatement, type DB } from './sqlite.js';

export type DistJson = Record<string, number>;

export interface DimensionRow {
  entity: string;
  attribute: string;
  distribution: DistJson;
  t_last: number;
  deltas: number;
  mode: string | null;
}

export interface DeltaRow {
  id: number;
  entity: string;
  attribute: string;
  observed_entity: string;
  value: string;
  t: number;
  reliability: number | null;
  epsilon: number;
  prior: DistJson;
  posterior: DistJson;
  surprise: number;
  evidence: string;
  source: string;
  memory_id: string | null;
  observation_id: string | null;
  recorded_at: number;
}

export type NewDelta = Omit<DeltaRow, 'id'>;

export interface AliasRow {
  alias: string;
  canonical: string;
  divergence: number | null;
  shared: number | null;
  merged_at: number;
}

export interface RejectionRow {
  a: string;
  b: string;
  rejected_at: number;
}

const ALIAS_COLS = 'alias, canonical, divergence, shared, merged_at';
const ALIAS_BY_NAME_SQL = `SELECT ${ALIAS_COLS} FROM mnemo_entity_aliases WHERE alias = ?`;
const REJECTION_COLS = 'a, b, rejected_at';
const REJECTION_BY_PAIR_SQL = `SELECT ${REJECTION_COLS} FROM mnemo_alias_rejections WHERE a = ? AND b = ?`;

/** One alias row on a bare connection (the journal snapshots rows before and after a change). */
export function aliasRowIn(db: DB, alias: string): AliasRow | null {
  return (cachedStatement(db, ALIAS_BY_NAME_SQL).get(alias) as AliasRow | undefined) ?? null;
}

/** One rejected pair on a bare connection (for the journal, as aliasRowIn). */
export function rejectionRowIn(db: DB, a: string, b: string): RejectionRow | null {
  return (cachedStatement(db, REJECTION_BY_PAIR_SQL).get(a, b) as RejectionRow | undefined) ?? null;
}

interface RawDelta extends Omit<DeltaRow, 'prior' | 'posterior'> {
  prior: string;
  posterior: string;
}

const DELTA_COLS =
  'id, entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at';

function decodeDelta(r: RawDelta): DeltaRow {
  return { ...r, prior: JSON.parse(r.prior) as DistJson, posterior: JSON.parse(r.posterior) as DistJson };
}

export class BeliefTables {
  private known = false;

  constructor(readonly store: StoreHandle) {}

  /** True once the belief migration ran on this file. */
  exists(): boolean {
    if (this.known) return true; // the tables are never dropped once made
    const found = statementOf(this.store, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_deltas'").get() !== undefined;
    // Inside a transaction the tables may yet be rolled back with it: only remember a committed fact.
    if (!connectionOf(this.store).inTransaction) this.known = found;
    return found;
  }

  /** Creates the tables when needed; call inside the write transaction. */
  prepareWrite(): void {
    this.store.ensureMnemo();
  }

  // ------------------------------------------------------------ dimensions

  /** `tablesExist` skips the schema check (callers inside a write that made the tables). */
  dimension(entity: string, attribute: string, tablesExist = false): DimensionRow | null {
    if (!tablesExist && !this.exists()) return null;
    const r = statementOf(this.store, 'SELECT entity, attribute, distribution, t_last, deltas, mode FROM mnemo_dimensions WHERE entity = ? AND attribute = ?').get(entity, attribute) as
      | (Omit<DimensionRow, 'distribution'> & { distribution: string })
      | undefined;
    return r ? { ...r, distribution: JSON.parse(r.distribution) as DistJson } : null;
  }

  dimensionsOf(entity: string): DimensionRow[] {
    if (!this.exists()) return [];
    const rows = statementOf(this.store, 'SELECT entity, attribute, distribution, t_last, deltas, mode FROM mnemo_dimensions WHERE entity = ? ORDER BY attribute')
      .all(entity) as (Omit<DimensionRow, 'distribution'> & { distribution: string })[];
    return rows.map((r) => ({ ...r, distribution: JSON.parse(r.distribution) as DistJson }));
  }

  allDimensions(): DimensionRow[] {
    if (!this.exists()) return [];
    const rows = statementOf(this.store, 'SELECT entity, attribute, distribution, t_last, deltas, mode FROM mnemo_dimensions ORDER BY entity, attribute').all() as (Omit<
      DimensionRow,
      'distribution'
    > & { distribution: string })[];
    return rows.map((r) => ({ ...r, distribution: JSON.parse(r.distribution) as DistJson }));
  }

  putDimension(d: DimensionRow): void {
    statementOf(this.store, 'INSERT OR REPLACE INTO mnemo_dimensions(entity, attribute, distribution, t_last, deltas, mode) VALUES (?, ?, ?, ?, ?, ?)')
      .run(d.entity, d.attribute, JSON.stringify(d.distribution), d.t_last, d.deltas, d.mode);
  }

  deleteDimensionsOf(entity: string): void {
    statementOf(this.store, 'DELETE FROM mnemo_dimensions WHERE entity = ?').run(entity);
  }

  /** Entities with their dimension and delta counts, optionally filtered by a name substring. */
  entities(search: string | undefined, limit: number, offset: number): { entity: string; dimensions: number; deltas: number; t_last: number }[] {
    if (!this.exists()) return [];
    const like = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '%';
    return statementOf(this.store,
        `SELECT entity, count(*) AS dimensions, sum(deltas) AS deltas, max(t_last) AS t_last FROM mnemo_dimensions
         WHERE entity LIKE ? ESCAPE '\\' GROUP BY entity ORDER BY entity LIMIT ? OFFSET ?`,
      )
      .all(like, limit, offset) as { entity: string; dimensions: number; deltas: number; t_last: number }[];
  }

  entityCount(search: string | undefined): number {
    if (!this.exists()) return 0;
    const like = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '%';
    return (statementOf(this.store, "SELECT count(DISTINCT entity) AS n FROM mnemo_dimensions WHERE entity LIKE ? ESCAPE '\\'").get(like) as { n: number }).n;
  }

  // ------------------------------------------------------------ deltas

  insertDelta(d: NewDelta): number {
    const info = statementOf(this.store,
        `INSERT INTO mnemo_deltas(entity, attribute, observed_entity, value, t, reliability, epsilon, prior, posterior, surprise, evidence, source, memory_id, observation_id, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
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
      );
    return Number(info.lastInsertRowid);
  }

  /** Adds a range of new deltas to the evidence index (one statement: far faster than per row). */
  indexEvidence(firstId: number, lastId: number): void {
    statementOf(this.store, "INSERT INTO mnemo_delta_fts(rowid, evidence) SELECT id, evidence FROM mnemo_deltas WHERE id BETWEEN ? AND ? AND evidence != ''").run(firstId, lastId);
  }

  /** Rewrites what a replay derives (the dimension a delta belongs to and how it moved). */
  updateDerived(id: number, entity: string, prior: DistJson, posterior: DistJson, surprise: number): void {
    statementOf(this.store, 'UPDATE mnemo_deltas SET entity = ?, prior = ?, posterior = ?, surprise = ? WHERE id = ?')
      .run(entity, JSON.stringify(prior), JSON.stringify(posterior), surprise, id);
  }

  delta(id: number): DeltaRow | null {
    if (!this.exists()) return null;
    const r = statementOf(this.store, `SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE id = ?`).get(id) as RawDelta | undefined;
    return r ? decodeDelta(r) : null;
  }

  /** A dimension's deltas in log order (time, then arrival), optionally only those at or before `until`. */
  deltasOf(entity: string, attribute: string, until?: number): DeltaRow[] {
    if (!this.exists()) return [];
    const rows = (
      until === undefined
        ? statementOf(this.store, `SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE entity = ? AND attribute = ? ORDER BY t, id`).all(entity, attribute)
        : statementOf(this.store, `SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE entity = ? AND attribute = ? AND t <= ? ORDER BY t, id`).all(entity, attribute, until)
    ) as RawDelta[];
    return rows.map(decodeDelta);
  }

  /** The last delta at or before t: what `query_at` reads. */
  lastDeltaAtOrBefore(entity: string, attribute: string, t: number): DeltaRow | null {
    if (!this.exists()) return null;
    const r = statementOf(this.store, `SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE entity = ? AND attribute = ? AND t <= ? ORDER BY t DESC, id DESC LIMIT 1`)
      .get(entity, attribute, t) as RawDelta | undefined;
    return r ? decodeDelta(r) : null;
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
    const rows = connectionOf(this.store)
      .prepare(`SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE ${parts.join(' AND ')} ORDER BY t DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as RawDelta[];
    return rows.map(decodeDelta);
  }

  /**
   * Every delta currently attributed to one of these entities, in log order (for replays after a
   * merge or its undo: callers pass both the old and the new canonical names).
   */
  deltasOfEntities(names: readonly string[]): DeltaRow[] {
    if (!this.exists() || names.length === 0) return [];
    const rows = connectionOf(this.store)
      .prepare(`SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE entity IN (${names.map(() => '?').join(',')}) ORDER BY t, id`)
      .all(...names) as RawDelta[];
    return rows.map(decodeDelta);
  }

  /** Lighter rows for whole-log scans (identity profiles, aggregation). */
  *scan(): Generator<Pick<DeltaRow, 'entity' | 'attribute' | 'value' | 't' | 'reliability' | 'surprise'>> {
    if (!this.exists()) return;
    yield* statementOf(this.store, 'SELECT entity, attribute, value, t, reliability, surprise FROM mnemo_deltas ORDER BY entity, attribute, t, id').iterate() as Iterable<
      Pick<DeltaRow, 'entity' | 'attribute' | 'value' | 't' | 'reliability' | 'surprise'>
    >;
  }

  deltasForMemory(memoryId: string): DeltaRow[] {
    if (!this.exists()) return [];
    const rows = statementOf(this.store, `SELECT ${DELTA_COLS} FROM mnemo_deltas WHERE memory_id = ? ORDER BY t, id`).all(memoryId) as RawDelta[];
    return rows.map(decodeDelta);
  }

  /** A fingerprint of the log and the alias table: a plan made on one basis applies only to it. */
  basis(): string {
    if (!this.exists()) return '0:0:0:0';
    const d = statementOf(this.store, 'SELECT count(*) AS n, coalesce(max(id), 0) AS m FROM mnemo_deltas').get() as { n: number; m: number };
    const a = statementOf(this.store, 'SELECT count(*) AS n FROM mnemo_entity_aliases').get() as { n: number };
    const r = statementOf(this.store, 'SELECT count(*) AS n FROM mnemo_alias_rejections').get() as { n: number };
    return `${d.n}:${d.m}:${a.n}:${r.n}`;
  }

  counts(): { dimensions: number; deltas: number; entities: number; aliases: number } {
    if (!this.exists()) return { dimensions: 0, deltas: 0, entities: 0, aliases: 0 };
    const n = (sql: string) => (statementOf(this.store, sql).get() as { n: number }).n;
    return {
      dimensions: n('SELECT count(*) AS n FROM mnemo_dimensions'),
      deltas: n('SELECT count(*) AS n FROM mnemo_deltas'),
      entities: n('SELECT count(DISTINCT entity) AS n FROM mnemo_dimensions'),
      aliases: n('SELECT count(*) AS n FROM mnemo_entity_aliases'),
    };
  }

  /** BM25 over delta evidence (FTS5; lower bm25() is better). `match` is an FTS5 query string. */
  searchEvidence(match: string, limit: number): { id: number; score: number }[] {
    if (!this.exists() || match.trim() === '') return [];
    return statementOf(this.store, 'SELECT rowid AS id, bm25(mnemo_delta_fts) AS score FROM mnemo_delta_fts WHERE mnemo_delta_fts MATCH ? ORDER BY score LIMIT ?')
      .all(match, limit) as { id: number; score: number }[];
  }

  // ------------------------------------------------------------ aliases

  aliases(): AliasRow[] {
    if (!this.exists()) return [];
    return statementOf(this.store, `SELECT ${ALIAS_COLS} FROM mnemo_entity_aliases ORDER BY canonical, alias`).all() as AliasRow[];
  }

  alias(name: string): AliasRow | null {
    if (!this.exists()) return null;
    return (statementOf(this.store, ALIAS_BY_NAME_SQL).get(name) as AliasRow | undefined) ?? null;
  }

  putAlias(a: AliasRow): void {
    statementOf(this.store, `INSERT OR REPLACE INTO mnemo_entity_aliases(${ALIAS_COLS}) VALUES (?, ?, ?, ?, ?)`)
      .run(a.alias, a.canonical, a.divergence, a.shared, a.merged_at);
  }

  deleteAlias(name: string): void {
    statementOf(this.store, 'DELETE FROM mnemo_entity_aliases WHERE alias = ?').run(name);
  }

  rejections(): RejectionRow[] {
    if (!this.exists()) return [];
    return statementOf(this.store, `SELECT ${REJECTION_COLS} FROM mnemo_alias_rejections ORDER BY a, b`).all() as RejectionRow[];
  }

  rejection(a: string, b: string): RejectionRow | null {
    if (!this.exists()) return null;
    return (statementOf(this.store, REJECTION_BY_PAIR_SQL).get(a, b) as RejectionRow | undefined) ?? null;
  }

  putRejection(a: string, b: string, at: number): void {
    statementOf(this.store, `INSERT OR REPLACE INTO mnemo_alias_rejections(${REJECTION_COLS}) VALUES (?, ?, ?)`).run(a, b, at);
  }

  deleteRejection(a: string, b: string): void {
    statementOf(this.store, 'DELETE FROM mnemo_alias_rejections WHERE a = ? AND b = ?').run(a, b);
  }
}
