/**
 * The belief model of one store: applies observations (one delta each), replays dimensions from
 * the delta log when history changes (an out-of-order observation, an alias merge or its undo),
 * resolves aliases, and owns the store's belief constants. The constants are recorded in the store
 * with the first observation, because a delta log is only meaningful under the constants that wrote it.
 */
import { badInput, MnemoError } from '../errors.js';
import { batchBudget, pacingOf, type RunPacing } from '../model/run-pacing.js';
import { beliefConfigOverrides, lambdaPerSecond, PAPER_CONFIG, resolveConfig, type BeliefConfig, type BeliefConfigOverrides, type BeliefProfile } from './config.js';
import { modeOf } from './equations.js';
import type { Observation } from './observation.js';
import { applyObservation, type DimensionState } from './update.js';
import { withoutRejected } from './rejected.js';
import type { DeltaRow, DimensionRow, IngestRun, StoreReader, StoreWriter } from '../store/port/port.js';
import { beliefTables, type BeliefReads, type BeliefWrites } from '../store/queries/belief-tables.js';

const CONFIG_KEY = 'beliefs_config';
const SEP = '\u0001';

export interface IngestResult {
  ingested: number;
  dimensions_touched: number;
  replayed_dimensions: number;
  first_delta_id: number | null;
  last_delta_id: number | null;
}

/** What an ingest has done so far: the dimensions it moved (written at its end) and the deltas it appended. */
interface IngestState {
  recordedAt: number;
  config: BeliefConfig;
  lambda: number;
  aliases: Map<string, string> | null;
  dims: Map<string, { entity: string; attribute: string; state: DimensionState | null; deltas: number }>;
  replay: Set<string>;
  first: number | null;
  last: number | null;
}

/**
 * The read side of a belief model: its constants, alias resolution and the belief tables' reads.
 * Read handlers get this (the same instance as the engine's BeliefModel, so a cached constant
 * cannot go stale), and a write through it does not compile.
 */
export type BeliefReader = Pick<BeliefModel, 'config' | 'lambda' | 'resolve' | 'aliasMap' | 'namesOf'> & {
  readonly tables: BeliefReads;
  readonly store: StoreReader;
};

export class BeliefModel {
  readonly tables: BeliefWrites;
  private cachedConfig: BeliefConfig | null = null;

  constructor(readonly store: StoreWriter) {
    // Rejected observations (a curator's, rejected.ts) stay in the log but count nowhere.
    this.tables = withoutRejected(beliefTables(store), store);
  }

  // ------------------------------------------------------------ constants

  /** The store's recorded constants, or the paper profile when nothing was observed yet. */
  config(): BeliefConfig {
    if (this.cachedConfig) return this.cachedConfig;
    const raw = this.store.getMeta(CONFIG_KEY);
    this.cachedConfig = raw ? { ...PAPER_CONFIG, ...(JSON.parse(raw) as Partial<BeliefConfig>) } : PAPER_CONFIG;
    return this.cachedConfig;
  }

  lambda(): number {
    return lambdaPerSecond(this.config());
  }

  /** Chooses the constants; allowed only while the delta log is empty. */
  configure(profile: BeliefProfile, overrides: BeliefConfigOverrides = {}): BeliefConfig {
    const parsed = beliefConfigOverrides.safeParse(overrides);
    if (!parsed.success) throw badInput(`invalid belief constants: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const next = resolveConfig(profile, parsed.data);
    if (this.tables.counts().deltas > 0 && JSON.stringify(next) !== JSON.stringify(this.config())) {
      throw new MnemoError(
        'conflict',
        `this store's beliefs were built with the ${this.config().profile} profile and its constants; the delta log only makes sense under them, so ingest into a new store to use other constants`,
      );
    }
    this.store.transaction(() => this.store.setMeta(CONFIG_KEY, JSON.stringify(next)));
    this.cachedConfig = next;
    return next;
  }

  private persistConfig(): void {
    if (this.store.getMeta(CONFIG_KEY) === null) this.store.setMeta(CONFIG_KEY, JSON.stringify(this.config()));
  }

  // ------------------------------------------------------------ aliases

  /** The canonical name of an entity (follows merged aliases). */
  resolve(entity: string, aliases?: Map<string, string>): string {
    const map = aliases ?? this.aliasMap();
    let name = entity;
    for (let i = 0; i < 64; i++) {
      const next = map.get(name);
      if (next === undefined || next === name) return name;
      name = next;
    }
    return name;
  }

  aliasMap(): Map<string, string> {
    return new Map(this.tables.aliases().map((a) => [a.alias, a.canonical]));
  }

  /** Every name (canonical and aliases) that resolves to `canonical`. */
  namesOf(canonical: string, aliases?: Map<string, string>): string[] {
    const map = aliases ?? this.aliasMap();
    const names = [canonical];
    for (const a of map.keys()) if (a !== canonical && this.resolve(a, map) === canonical) names.push(a);
    return names;
  }

  // ------------------------------------------------------------ writes

  observe(o: Observation, recordedAt: number): DeltaRow {
    const res = this.ingest([o], recordedAt);
    return this.tables.delta(res.last_delta_id!)!;
  }

  /**
   * Applies a validated batch in one transaction: a failure writes nothing. Observations are taken
   * in time order (stable for ties); one older than its dimension's last update is logged and the
   * dimension is replayed from its log at the end.
   */
  ingest(observations: readonly Observation[], recordedAt: number): IngestResult {
    const sorted = this.prepareIngest(observations);
    return this.store.transaction(() => {
      this.tables.prepareWrite();
      this.persistConfig();
      const run = this.newIngestState(recordedAt);
      for (const { o } of sorted) this.appendDelta(run, o);
      if (run.first !== null && run.last !== null) this.tables.indexEvidence(run.first, run.last);
      this.writeDimensions(run);
      return this.ingestResult(run, observations.length);
    });
  }

  /**
   * The same ingest, written in short transactions so agents keep the write lock between them
   * (a 200k-observation ingest in one transaction held it for ~15 s). Batches only append deltas;
   * the dimensions are written in the last one, so until then readers see the old beliefs with
   * the new deltas in the log. A failure, a cancel or a crash (recovered by the next writable
   * open) deletes the appended deltas: the store is as before. Same result as `ingest`.
   */
  async ingestInBatches(observations: readonly Observation[], recordedAt: number, opts: { pacing?: RunPacing; shouldCancel?: () => boolean } = {}): Promise<IngestResult> {
    const sorted = this.prepareIngest(observations);
    const pacing = pacingOf(opts.pacing);
    const pacer = this.store.runs.pacer(pacing);
    const run = this.newIngestState(recordedAt);
    // Typed as the run it may become: it is set inside the batches' callbacks.
    let marker = null as IngestRun | null;
    let i = 0;
    // The line being written: a value the store cannot keep (a NUL character in PostgreSQL text) is
    // refused as it is written, and the error then names its line.
    let writing = 0;
    try {
      do {
        if (opts.shouldCancel?.()) throw new MnemoError('conflict', 'belief ingest cancelled; nothing was ingested', { cancelled: true });
        this.store.transaction(() => {
          this.tables.prepareWrite();
          if (!marker) {
            this.persistConfig();
            marker = this.store.runs.beginIngestRun();
          }
          const spent = batchBudget(pacing);
          // Not the previous batch's last id + 1: another writer may have appended in between.
          let first: number | null = null;
          while (i < sorted.length) {
            writing = sorted[i]!.o.line;
            this.appendDelta(run, sorted[i++]!.o);
            first ??= run.last;
            if (spent()) break;
          }
          if (first !== null && run.last !== null) {
            this.tables.indexEvidence(first, run.last);
            marker.noteBatch(first, run.last);
          }
        });
        if (i < sorted.length) await pacer.between();
      } while (i < sorted.length);
      return this.store.transaction(() => {
        this.writeDimensions(run);
        // Observations other writers added meanwhile were computed without ours: replay those dimensions.
        if (marker) {
          for (const d of marker.foreignDeltaDimensions()) this.replayDimension(d.entity, this.tables.deltasOf(d.entity, d.attribute));
        }
        if (marker) marker.clear();
        return this.ingestResult(run, observations.length);
      });
    } catch (err) {
      if (marker) marker.rollback();
      if (err instanceof MnemoError && err.code === 'bad_input' && writing > 0 && !('line' in (err.details ?? {}))) {
        throw badInput(`line ${writing}: ${err.message}; nothing was ingested`, { ...err.details, line: writing });
      }
      throw err;
    } finally {
      pacer.end();
    }
  }

  private prepareIngest(observations: readonly Observation[]): { o: Observation; i: number }[] {
    for (const o of observations) {
      if (o.memory_id !== null && !this.store.exists(o.memory_id)) {
        throw badInput(`line ${o.line}: memory_id ${o.memory_id} names no memory in this store; add the memory first or drop memory_id; nothing was ingested`, {
          line: o.line,
        });
      }
    }
    return observations.map((o, i) => ({ o, i })).sort((a, b) => a.o.t - b.o.t || a.i - b.i);
  }

  private newIngestState(recordedAt: number): IngestState {
    return { recordedAt, config: this.config(), lambda: this.lambda(), aliases: null, dims: new Map(), replay: new Set(), first: null, last: null };
  }

  /** Logs one observation as a delta and moves its dimension's state (in memory until writeDimensions). */
  private appendDelta(run: IngestState, o: Observation): void {
    const { config, lambda } = run;
    run.aliases ??= this.aliasMap();
    const entity = this.resolve(o.entity, run.aliases);
    const key = entity + SEP + o.attribute;
    let dim = run.dims.get(key);
    if (!dim) {
      const row = this.tables.dimension(entity, o.attribute, true);
      dim = { entity, attribute: o.attribute, state: row ? { dist: row.distribution, tLast: row.t_last } : null, deltas: row?.deltas ?? 0 };
      run.dims.set(key, dim);
    }
    const late = dim.state !== null && o.t < dim.state.tLast;
    if (late) run.replay.add(key);
    const step = late ? null : applyObservation(dim.state, o.value, o.t, o.reliability, config, lambda);
    const id = this.tables.insertDelta({
      entity,
      attribute: o.attribute,
      observed_entity: o.entity,
      value: o.value,
      t: o.t,
      reliability: o.reliability,
      epsilon: step?.epsilon ?? (o.reliability === null ? config.epsilonDefault : 1 - o.reliability),
      prior: step?.prior ?? {},
      posterior: step?.posterior ?? {},
      surprise: step?.surprise ?? 0,
      evidence: o.evidence,
      source: o.source,
      memory_id: o.memory_id,
      observation_id: o.id,
      recorded_at: run.recordedAt,
    });
    run.first ??= id;
    run.last = id;
    dim.deltas++;
    if (step) dim.state = { dist: step.posterior, tLast: o.t };
  }

  private writeDimensions(run: IngestState): void {
    for (const [key, d] of run.dims) {
      if (run.replay.has(key) || !d.state) continue;
      this.tables.putDimension({ entity: d.entity, attribute: d.attribute, distribution: d.state.dist, t_last: d.state.tLast, deltas: d.deltas, mode: modeOf(d.state.dist).value });
    }
    for (const key of run.replay) {
      const d = run.dims.get(key)!;
      this.replayDimension(d.entity, this.tables.deltasOf(d.entity, d.attribute));
    }
  }

  private ingestResult(run: IngestState, n: number): IngestResult {
    return { ingested: n, dimensions_touched: run.dims.size, replayed_dimensions: run.replay.size, first_delta_id: run.first, last_delta_id: run.last };
  }

  /** Recomputes one dimension from its deltas (already in log order), rewriting what each delta derived. */
  private replayDimension(entity: string, deltas: readonly DeltaRow[]): DimensionRow | null {
    const config = this.config();
    const lambda = this.lambda();
    let state: DimensionState | null = null;
    for (const d of deltas) {
      const step = applyObservation(state, d.value, d.t, d.reliability, config, lambda);
      this.tables.updateDerived(d.id, entity, step.prior, step.posterior, step.surprise);
      state = { dist: step.posterior, tLast: d.t };
    }
    if (!state || deltas.length === 0) return null;
    const row: DimensionRow = { entity, attribute: deltas[0]!.attribute, distribution: state.dist, t_last: state.tLast, deltas: deltas.length, mode: modeOf(state.dist).value };
    this.tables.putDimension(row);
    return row;
  }

  /**
   * Re-derives every dimension of the entities these names resolve to, from the delta log and the
   * alias table as they are now. Used after an alias merge and when one is undone or redone.
   */
  rebuild(names: Iterable<string>): void {
    this.store.transaction(() => {
      this.tables.prepareWrite();
      const aliases = this.aliasMap();
      const group = new Set<string>();
      for (const n of names) {
        group.add(n);
        group.add(this.resolve(n, aliases));
      }
      // every name that resolves into the group, so an alias of an alias moves too
      for (const a of aliases.keys()) if (group.has(this.resolve(a, aliases))) group.add(a);
      // every delta of these names sits under one of them as entity (the old or the new canonical)
      const deltas = this.tables.deltasOfEntities([...group]);
      for (const n of group) this.tables.deleteDimensionsOf(n);
      const byDim = new Map<string, DeltaRow[]>();
      for (const d of deltas) {
        const key = this.resolve(d.observed_entity, aliases) + SEP + d.attribute;
        let list = byDim.get(key);
        if (!list) byDim.set(key, (list = []));
        list.push(d);
      }
      for (const [key, list] of byDim) this.replayDimension(key.slice(0, key.indexOf(SEP)), list);
    });
  }
}
