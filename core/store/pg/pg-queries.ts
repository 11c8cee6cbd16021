/**
 * The PostgreSQL adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): the
 * methods written so far, bound to their SQL, and the rest throwing `unsupported` by name (the
 * list is checked by the compiler against what is left of the interface).
 */
import type { StoreQueries } from '../port.js';
import { notYetGroup } from './pg-not-yet.js';
import type { PgCredentials } from './pg-credentials.js';
import type { PgMemoryQueries } from './pg-memory-queries.js';
import type { PgRowQueries } from './pg-row-queries.js';

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
  | 'latestAccessEventId';

export function pgQueries(rows: PgRowQueries, memories: PgMemoryQueries, credentials: PgCredentials): StoreQueries {
  const written: Pick<StoreQueries, Written> = {
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
  };
  const notYet = notYetGroup<Omit<StoreQueries, Written>>('queries', {
    listMemories: true,
    listIds: true,
    memoryFacets: true,
    graphView: true,
    iterUsageRecords: true,
    usageRecords: true,
    auditEvents: true,
    loggedRecalls: true,
    loggedResultIds: true,
    memoriesTouched: true,
    liveValueCounts: true,
    liveAndArchivedCounts: true,
    liveEdgeTypeCounts: true,
    liveRetentionBucketCounts: true,
    liveIdleBucketCounts: true,
    liveCount: true,
    retentionSample: true,
    tableCounts: true,
    schemaVersions: true,
    countsByColumn: true,
    archivedCount: true,
    edgeCountsByType: true,
    beliefDimensionCount: true,
    savedProfile: true,
    savedProfiles: true,
    feedRetention: true,
    feedStatus: true,
  });
  return { ...notYet, ...written };
}
