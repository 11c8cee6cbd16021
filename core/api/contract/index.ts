/**
 * The service contract: every method any door can call. Domain files declare their methods;
 * this index merges them. Types only depend on zod and the model, so the renderer can import them.
 */
import type { z } from 'zod';
import type { MethodSpec } from '../define.js';
import { memoryContract } from './memory.js';
import { statsContract } from './stats.js';
import { beliefsContract } from './beliefs.js';
import { storeContract } from './store.js';
import { reflectContract } from './reflect.js';
import { graphContract } from './graph.js';
import { tagsContract } from './tags.js';
import { recallContract } from './recall.js';
import { accessContract } from './access.js';
import { retentionContract } from './retention.js';
import { observeContract } from './observe.js';
import { prospectiveContract } from './prospective.js';
import { overviewContract } from './overview.js';
import { fleetContract } from './fleet.js';
import { reviewContract } from './review.js';
import { curationContract } from './curation.js';

export const contract = {
  ...storeContract,
  ...memoryContract,
  ...statsContract,
  ...reflectContract,
  ...graphContract,
  ...tagsContract,
  ...recallContract,
  ...accessContract,
  ...retentionContract,
  ...observeContract,
  ...prospectiveContract,
  ...beliefsContract,
  ...overviewContract,
  ...fleetContract,
  ...reviewContract,
  ...curationContract,
} as const;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type InputOf<M extends MethodName> = z.input<Contract[M]['input']>;
export type ParsedInputOf<M extends MethodName> = z.output<Contract[M]['input']>;
export type OutputOf<M extends MethodName> = Contract[M] extends MethodSpec<z.ZodType, infer O> ? O : never;

export const METHOD_NAMES = Object.keys(contract) as MethodName[];
export const isMethodName = (m: string): m is MethodName => Object.prototype.hasOwnProperty.call(contract, m);

export type { StoreInfo } from './store.js';
export type { MemorySummary, MemoryDetail, EdgeView } from './memory.js';
export type { BasicStats } from './stats.js';
export type { PlanProgressState } from './reflect.js';
export type { GraphNode, GraphEdge, GraphView } from './graph.js';
export type { Facet, MemoryFacets } from './tags.js';
export type { ExplainRow, ExplainResult, SpreadPath, RecallResult, RecallItem, WhyNotResult, RecallProfileInfo, RecallProfileName, Source, ScoreTerms } from './recall.js';
export type { AccessEventView, AccessListResult, ReplayResult, ComponentSnapshot } from './access.js';
export type { RetentionRow, RetentionCurve, CurveMarker, PruneResult, AccessTally } from './retention.js';
export type { MemoryUsage, StoreKpis, RowsVsReads, RowsVsReadsRow } from './observe.js';
export type { IntentListResult, IntentDueResult, DueIntentRow, TodoListResult } from './prospective.js';
export type { IntentView, TodoView, IntentState } from '../../prospective/views.js';
export type { BeliefView, DeltaView, BeliefConfigView, BeliefEntitySummary, AliasPlanView, AliasProposalView, AliasRowView, BeliefAnswerView, RetrievalView } from './beliefs.js';
export type { OverviewFacets, RangeFacet, RetentionScatter, ScatterPoint, MaintenanceRow } from './overview.js';
export type { FleetEntry, FleetListing, FleetStoreKpis } from './fleet.js';
export type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem } from './review.js';
export type { DuplicateGroup, DuplicateMember, DuplicatePage } from './curation.js';
