/**
 * The service contract: every method any door can call. Each method `prefix.name` is declared in
 * the file named after its prefix (`memory.ts` holds `memory.*`); schema pieces several files use
 * live in shared/. This index merges them. Types only depend on zod and the model, so the renderer
 * can import them.
 */
import type { z } from 'zod';
import type { MethodSpec } from '../define.js';
import { accessContract } from './access.js';
import { beliefsContract } from './beliefs.js';
import { curationContract } from './curation.js';
import { edgeContract } from './edge.js';
import { feedContract } from './feed.js';
import { fleetContract } from './fleet.js';
import { graphContract } from './graph.js';
import { intentsContract } from './intents.js';
import { journalContract } from './journal.js';
import { labContract } from './lab.js';
import { memoryContract } from './memory.js';
import { overviewContract } from './overview.js';
import { profilesContract } from './profiles.js';
import { recallContract } from './recall.js';
import { reflectContract } from './reflect.js';
import { retentionContract } from './retention.js';
import { reviewContract } from './review.js';
import { statsContract } from './stats.js';
import { storeContract } from './store.js';
import { todosContract } from './todos.js';

/** Each prefix file's methods, keyed by the file's name (test/unit/api-layout.test.ts holds them to it). */
export const contractByFile = {
  access: accessContract,
  beliefs: beliefsContract,
  curation: curationContract,
  edge: edgeContract,
  feed: feedContract,
  fleet: fleetContract,
  graph: graphContract,
  intents: intentsContract,
  journal: journalContract,
  lab: labContract,
  memory: memoryContract,
  overview: overviewContract,
  profiles: profilesContract,
  recall: recallContract,
  reflect: reflectContract,
  retention: retentionContract,
  review: reviewContract,
  stats: statsContract,
  store: storeContract,
  todos: todosContract,
} as const;

export const contract = {
  ...accessContract,
  ...beliefsContract,
  ...curationContract,
  ...edgeContract,
  ...feedContract,
  ...fleetContract,
  ...graphContract,
  ...intentsContract,
  ...journalContract,
  ...labContract,
  ...memoryContract,
  ...overviewContract,
  ...profilesContract,
  ...recallContract,
  ...reflectContract,
  ...retentionContract,
  ...reviewContract,
  ...statsContract,
  ...storeContract,
  ...todosContract,
} as const;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type InputOf<M extends MethodName> = z.input<Contract[M]['input']>;
export type ParsedInputOf<M extends MethodName> = z.output<Contract[M]['input']>;
export type OutputOf<M extends MethodName> = Contract[M] extends MethodSpec<z.ZodType, infer O> ? O : never;

export const METHOD_NAMES = Object.keys(contract) as MethodName[];
export const isMethodName = (m: string): m is MethodName => Object.prototype.hasOwnProperty.call(contract, m);

/**
 * Whether a successful call of `method` changes what the open views show: it wrote to the store,
 * or made another store the current one. Every door refreshes its views by this one rule (our own
 * writes do not move our connection's data_version, so the doors are told, not left to poll).
 */
export function changesWhatViewsShow(method: string): boolean {
  if (!isMethodName(method)) return false;
  const spec: MethodSpec = contract[method];
  return spec.mutates === true || spec.switchesStore === true;
}

export type { StoreInfo, CountsHeld } from './store.js';
export type { MemorySummary, MemoryDetail, EdgeView, Facet, MemoryFacets } from './memory.js';
export type { BasicStats, MemoryUsage, StoreKpis, RowsVsReads, RowsVsReadsRow } from './stats.js';
export type { PlanProgressState } from './reflect.js';
export type { WriteJobState } from './journal.js';
export type { GraphNode, GraphEdge, GraphView } from './graph.js';
export type { ExplainRow, ExplainResult, SpreadPath, RecallResult, RecallItem, WhyNotResult, RecallProfileInfo, RecallProfileName, Source, ScoreTerms, IndexBuildState, RecallStats } from './recall.js';
export type { AccessEventView, AccessListResult, ReplayResult, ComponentSnapshot, AuditCredential } from './access.js';
export type { RetentionRow, RetentionCurve, CurveMarker, PruneResult, AccessTally } from './retention.js';
export type { IntentListResult, IntentDueResult, DueIntentRow } from './intents.js';
export type { TodoListResult } from './todos.js';
export type { IntentView, TodoView, IntentState } from '../../prospective/views.js';
export type { BeliefView, DeltaView, BeliefConfigView, BeliefEntitySummary, AliasPlanView, AliasProposalView, AliasRowView, BeliefAnswerView, RetrievalView, CalibrationFigures, DiscriminationFigures, FittedCalibration, StoredSignals } from './beliefs.js';
export type { OverviewFacets, RangeFacet, RetentionScatter, ScatterPoint, MaintenanceRow } from './overview.js';
export type { FleetEntry, FleetListing, FleetStoreKpis, FleetCredentialUse, CredentialRef, OwnerSummaries, OwnerSummary } from './fleet.js';
export type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem, ConflictItem, ConflictKind, ConflictPage, ConflictSide, RecallToday, ResolutionResult } from './review.js';
export type { DuplicateGroup, DuplicateMember, DuplicatePage } from './curation.js';
