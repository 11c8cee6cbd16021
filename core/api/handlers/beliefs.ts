import { recordRedactions, redactOne } from '../../engine/redaction.js';
import { totalOf, type RedactionCounts } from '../../model/redaction.js';
import type { StoreReader, StoreWriter } from '../../store/port/port.js';
import type { Observation } from '../../beliefs/observation.js';
import {
  answerQueries,
  applyAliasMerges,
  beliefReaderOf,
  beliefsOf,
  parseObservation,
  parseObservationsJsonl,
  planAliases,
  readBelief,
  readEntity,
  rejectAliasPair,
  retrieve,
  type BeliefModel,
  type BeliefReader,
} from '../../beliefs/index.js';
import { lambdaPerSecond } from '../../beliefs/config.js';
import { fittedCalibration, fittedSignals } from '../../beliefs/calibration-choice.js';
import { OTHER, type Dist } from '../../beliefs/equations.js';
import { sortedDistribution } from '../../beliefs/read.js';
import { toObservation } from '../../beliefs/observation.js';
import { memoryHead } from '../../model/memory.js';
import type { ApiSession } from '../context.js';
import type { beliefsContract, BeliefConfigView, DeltaView } from '../contract/beliefs.js';
import type { HandlersFor, ReadSession } from './types.js';
import type { DeltaRow } from '../../store/port/port.js';

function model(session: ApiSession): BeliefModel {
  return beliefsOf(session.engine());
}

/** The same model, typed to read: what the read methods get. */
function reader(session: ReadSession): BeliefReader {
  return beliefReaderOf(session.engine());
}

function configView(m: BeliefReader): BeliefConfigView {
  const config = m.config();
  return {
    config,
    lambda_per_second: lambdaPerSecond(config),
    recorded: m.store.getMeta('beliefs_config') !== null,
    calibration: { 'as-of': fittedCalibration(config, 'as-of'), hindsight: fittedCalibration(config, 'hindsight') },
    signals: { 'as-of': fittedSignals(config, 'as-of'), hindsight: fittedSignals(config, 'hindsight') },
  };
}

/** The most probable entry, where "not yet observed" (OTHER) counts as no value. */
function leading(p: Dist): string | null {
  let best: string | null = null;
  let bp = -1;
  for (const k in p) {
    if (p[k]! > bp) {
      best = k;
      bp = p[k]!;
    }
  }
  return best === OTHER ? null : best;
}

/** Whether the memory behind a delta still exists, and its head to show instead of its id. */
function memoryOf(m: BeliefReader, id: string | null): { memory_exists: boolean; memory_head: string | null } {
  const mem = id === null ? null : m.store.get(id);
  return { memory_exists: mem !== null, memory_head: mem ? memoryHead(mem) : null };
}

export function deltaView(m: BeliefReader, d: DeltaRow): DeltaView {
  const before = leading(d.prior);
  const after = leading(d.posterior);
  return {
    id: d.id,
    entity: d.entity,
    observed_entity: d.observed_entity,
    attribute: d.attribute,
    value: d.value,
    t: d.t,
    reliability: d.reliability,
    epsilon: d.epsilon,
    surprise: d.surprise,
    prior: sortedDistribution(d.prior),
    posterior: sortedDistribution(d.posterior),
    mode_before: before,
    mode_after: after,
    moved: before !== after,
    evidence: d.evidence,
    source: d.source,
    memory_id: d.memory_id,
    ...memoryOf(m, d.memory_id),
    observation_id: d.observation_id,
  };
}

const atOr = (session: Pick<ReadSession, 'engine'>, at: number | undefined) => at ?? session.engine().now();

/**
 * Observations with secrets replaced (engine/redaction.ts): the value, the evidence and the source
 * are what an agent or an import supplies. Names are left as they are (they key the dimensions).
 */
function redactObservations(store: StoreReader, given: readonly Observation[]): { observations: Observation[]; counts: RedactionCounts } {
  const counts: RedactionCounts = {};
  const observations = given.map((o) => ({ ...o, value: redactOne(store, o.value, counts), evidence: redactOne(store, o.evidence, counts), source: redactOne(store, o.source, counts) }));
  return { observations, counts };
}

/** Beliefs are not journalled: their replacements are counted in a change of their own. */
function countRedactions(store: StoreWriter, counts: RedactionCounts): void {
  if (totalOf(counts)) store.change('redaction counts (beliefs)', 'store.redaction', () => recordRedactions(store, counts));
}

export const beliefsHandlers: HandlersFor<typeof beliefsContract> = {
  'beliefs.config': (_input, session) => configView(reader(session)),
  'beliefs.configure': (input, session) => {
    const m = model(session);
    m.configure(input.profile, input.overrides ?? {});
    return configView(m);
  },
  'beliefs.observe': (input, session) => {
    const m = model(session);
    const engine = session.engine();
    const { observations, counts } = redactObservations(engine.store, [toObservation(input.observation, 1)]);
    const delta = deltaView(m, m.observe(observations[0]!, engine.now()));
    countRedactions(engine.store, counts);
    return totalOf(counts) ? { ...delta, redacted: counts } : delta;
  },
  'beliefs.ingest': async (input, session) => {
    const m = model(session);
    const engine = session.engine();
    const parsed =
      input.jsonl !== undefined ? parseObservationsJsonl(input.jsonl) : input.observations!.map((o, i) => parseObservation(o, `observation ${i + 1}`, i + 1));
    const { observations, counts } = redactObservations(engine.store, parsed);
    // In short transactions: a 200k-line ingest must not lock agents out of the store.
    const result = await m.ingestInBatches(observations, engine.now());
    countRedactions(engine.store, counts);
    return totalOf(counts) ? { ...result, redacted: counts } : result;
  },
  'beliefs.entities': (input, session) => {
    const m = reader(session);
    const aliases = m.aliasMap();
    const byCanonical = new Map<string, string[]>();
    for (const a of aliases.keys()) {
      const c = m.resolve(a, aliases);
      byCanonical.set(c, [...(byCanonical.get(c) ?? []), a]);
    }
    return {
      total: m.tables.entityCount(input.search),
      entities: m.tables.entities(input.search, input.limit, input.offset).map((e) => ({ ...e, aliases: (byCanonical.get(e.entity) ?? []).sort() })),
    };
  },
  'beliefs.entity': (input, session) => {
    const m = reader(session);
    const at = atOr(session, input.at);
    const entity = m.resolve(input.entity);
    return { entity, aliases: m.namesOf(entity).filter((n) => n !== entity).sort(), at, mode: input.mode, dimensions: readEntity(m, entity, at, input.mode) };
  },
  'beliefs.get': (input, session) => {
    const m = reader(session);
    const at = atOr(session, input.at);
    const belief = readBelief(m, input.entity, input.attribute, at, input.mode);
    const deltas = m.tables.deltasOf(belief.entity, input.attribute, at);
    return { belief, deltas: deltas.slice(Math.max(0, deltas.length - input.deltas_limit)).map((d) => deltaView(m, d)) };
  },
  'beliefs.deltas': (input, session) => {
    const m = reader(session);
    const entity = m.resolve(input.entity);
    return { entity, deltas: m.tables.timeline(entity, input.attribute, input.limit, input.offset, input.at).map((d) => deltaView(m, d)) };
  },
  'beliefs.forMemory': (input, session) => {
    const m = reader(session);
    const deltas = m.tables.deltasForMemory(input.memory_id);
    const dims = new Map(deltas.map((d) => [`${d.entity}\u0001${d.attribute}`, { entity: d.entity, attribute: d.attribute }]));
    return { memory_id: input.memory_id, deltas: deltas.map((d) => deltaView(m, d)), dimensions: [...dims.values()] };
  },
  'beliefs.aliases.plan': (input, session) => planAliases(reader(session), atOr(session, input.at)),
  'beliefs.aliases.apply': (input, session) => applyAliasMerges(model(session), input.merges, input.basis, session.engine().now()),
  'beliefs.aliases.reject': (input, session) => rejectAliasPair(model(session), input.a, input.b, session.engine().now()),
  'beliefs.aliases.list': (_input, session) => {
    const m = reader(session);
    return { aliases: m.tables.aliases(), rejections: m.tables.rejections() };
  },
  'beliefs.answer': (input, session) => ({ answers: answerQueries(reader(session), input.queries, input.mode) }),
  'beliefs.retrieve': (input, session) =>
    retrieve(reader(session), input.query, {
      at: atOr(session, input.at),
      ...(input.hops !== undefined ? { hops: input.hops } : {}),
      ...(input.top_k !== undefined ? { topK: input.top_k } : {}),
    }),
};
