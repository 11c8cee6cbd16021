/**
 * The PostgreSQL adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): the
 * methods written so far, bound to their SQL, and the rest throwing `unsupported` by name (the
 * list is checked by the compiler against what is left of the interface).
 */
import type { CountQueries, StoreQueries } from '../port/port.js';
import { notYetGroup } from './pg-not-yet.js';
import type { PgAudit } from './pg-audit.js';
import type { PgCounts } from './pg-counts.js';
import type { PgCredentials } from './pg-credentials.js';
import type { PgGraph } from './pg-graph.js';
import type { PgList } from './pg-list.js';
import type { PgMemoryQueries } from './pg-memory-queries.js';
import type { PgRowQueries } from './pg-row-queries.js';
import type { PgSavedProfiles } from './pg-saved-profiles.js';

type Written =
  | 'memoryRows'
  | 'memoryRowPages'
  | 'embeddingRows'
  | 'edgeRows'
  | 'edgeRowPages'
  | 'liveVectorRows'
  | 'vectorRow'
  | 'sourceRow'
  | 'liveSourceRows'
  | 'liveBodies'
  | 'liveEntities'
  | 'allEdges'
  | 'edgesOfType'
  | 'edgeTargets'
  | 'credentialById'
  | 'credentialByHash'
  | 'listCredentialRows'
  | 'credentialRefs'
  | 'credentialUse'
  | 'ownerStates'
  | 'memoryHeads'
  | 'liveDuplicateCandidates'
  | 'duplicateCandidate'
  | 'titlesOf'
  | 'sessionAccessEvents'
  | 'latestAccessEventId'
  | 'memoriesTouched'
  | 'iterUsageRecords'
  | 'usageRecords'
  | 'auditEvents'
  | 'loggedRecalls'
  | 'loggedResultIds'
  | 'savedProfile'
  | 'savedProfiles'
  | 'listMemories'
  | 'listIds'
  | 'memoryFacets'
  | 'graphView'
  | 'feedRetention'
  | 'feedStatus'
  | 'planErase'
  | keyof CountQueries;

export function pgQueries(
  rows: PgRowQueries,
  memories: PgMemoryQueries,
  credentials: PgCredentials,
  counts: PgCounts,
  audit: PgAudit,
  profiles: PgSavedProfiles,
  list: PgList,
  graph: PgGraph,
  feed: Pick<StoreQueries, 'feedRetention' | 'feedStatus'>,
  erase: Pick<StoreQueries, 'planErase'>,
): StoreQueries {
  const written: Pick<StoreQueries, Written> = {
    ...feed,
    ...erase,
    listMemories: (f) => list.listMemories(f),
    listIds: (f, max) => list.listIds(f, max),
    memoryFacets: (archived, tagLimit, tagSample) => list.memoryFacets(archived, tagLimit, tagSample),
    graphView: (f) => graph.graphView(f),
    memoryRows: () => rows.memoryRows(),
    memoryRowPages: (pageSize) => rows.memoryRowPages(pageSize),
    embeddingRows: () => rows.embeddingRows(),
    edgeRows: () => rows.edgeRows(),
    edgeRowPages: (pageSize) => rows.edgeRowPages(pageSize),
    liveVectorRows: () => rows.liveVectorRows(),
    vectorRow: (id) => rows.vectorRow(id),
    sourceRow: (id) => rows.sourceRow(id),
    liveSourceRows: () => rows.liveSourceRows(),
    liveBodies: () => rows.liveBodies(),
    liveEntities: () => rows.liveEntities(),
    allEdges: () => rows.allEdges(),
    edgesOfType: (type) => rows.edgesOfType(type),
    edgeTargets: (src, type) => rows.edgeTargets(src, type),
    credentialById: (id) => credentials.byId(id),
    credentialByHash: (hash) => credentials.byHash(hash),
    listCredentialRows: () => credentials.list(),
    credentialRefs: () => credentials.refs(),
    credentialUse: () => credentials.use(),
    ownerStates: (ids) => memories.ownerStates(ids),
    memoryHeads: () => memories.memoryHeads(),
    liveDuplicateCandidates: () => memories.liveDuplicateCandidates(),
    duplicateCandidate: (id) => memories.duplicateCandidate(id),
    titlesOf: (ids) => memories.titlesOf(ids),
    sessionAccessEvents: (channels) => memories.sessionAccessEvents(channels),
    latestAccessEventId: () => memories.latestAccessEventId(),
    memoriesTouched: (changeId, limit) => memories.memoriesTouched(changeId, limit),
    iterUsageRecords: (scope) => memories.iterUsageRecords(scope),
    usageRecords: (ids) => memories.usageRecords(ids),
    auditEvents: (f) => audit.auditEvents(f),
    loggedRecalls: (limit) => audit.loggedRecalls(limit),
    loggedResultIds: (queries, k) => audit.loggedResultIds(queries, k),
    savedProfile: (name) => profiles.row(name),
    savedProfiles: () => profiles.rows(),
    liveValueCounts: counts.liveValueCounts.bind(counts),
    liveAndArchivedCounts: counts.liveAndArchivedCounts.bind(counts),
    liveEdgeTypeCounts: counts.liveEdgeTypeCounts.bind(counts),
    liveRetentionBucketCounts: counts.liveRetentionBucketCounts.bind(counts),
    liveIdleBucketCounts: counts.liveIdleBucketCounts.bind(counts),
    liveCount: counts.liveCount.bind(counts),
    retentionSample: counts.retentionSample.bind(counts),
    tableCounts: counts.tableCounts.bind(counts),
    schemaVersions: counts.schemaVersions.bind(counts),
    countsByColumn: counts.countsByColumn.bind(counts),
    archivedCount: counts.archivedCount.bind(counts),
    edgeCountsByType: counts.edgeCountsByType.bind(counts),
    beliefDimensionCount: counts.beliefDimensionCount.bind(counts),
    ownerSummaries: counts.ownerSummaries.bind(counts),
  };
  const notYet = notYetGroup<Omit<StoreQueries, Written>>('queries', {});
  return { ...notYet, ...written };
}
