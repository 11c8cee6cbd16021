/**
 * The SQLite adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): each
 * method hands the store to the query module that holds its SQL. The modules stay as they are, one
 * responsibility each; this file only binds them to one store, so nothing above core/store/ imports
 * them.
 */
import { auditEvents } from './access-queries.js';
import { credentialById, credentialByHash, credentialRefs, credentialUse, listCredentialRows } from './agent-credentials.js';
import { allEdges, edgesOfType, edgeTargets, liveBodies, liveEntities, liveSourceRows, liveVectorRows, sourceRow, vectorRow } from './derived-sources.js';
import { duplicateCandidate, liveDuplicateCandidates, titlesOf } from './duplicate-rows.js';
import { memoryFacets } from './facets.js';
import { feedRetention, feedStatus } from './feed-retention.js';
import { edgeRowPages, edgeRows, embeddingRows, memoryRowPages, memoryRows } from './fingerprint-rows.js';
import { graphView } from './graph-query.js';
import { memoriesTouched } from './journal-dependents.js';
import { listIds } from './list-ids.js';
import { listMemories } from './list-query.js';
import { loggedRecalls, loggedResultIds } from './logged-recalls.js';
import { latestAccessEventId, sessionAccessEvents } from './session-events.js';
import { liveAndArchivedCounts, liveCount, liveEdgeTypeCounts, liveIdleBucketCounts, liveRetentionBucketCounts, liveValueCounts, retentionSample } from './overview-counts.js';
import type { StoreQueries } from '../port/port.js';
import { ownerStates } from './recall-reads.js';
import { ownerSummaries } from './owner-summaries.js';
import { memoryHeads } from './review-heads.js';
import { archivedCount, beliefDimensionCount, countsByColumn, edgeCountsByType, schemaVersions, tableCounts } from './store-counts.js';
import { savedProfileRow, savedProfileRows } from './saved-profiles.js';
import { planErase, type EraseStore } from '../shared/erase-run.js';
import { sqliteEraseBackend } from './sqlite-erase.js';
import { iterUsageRecords, usageRecords } from './usage-rows.js';

export function sqliteQueries(store: EraseStore): StoreQueries {
  const erasing = sqliteEraseBackend(store);
  return {
    planErase: (selector) => planErase(store, erasing, selector),
    listMemories: (f) => listMemories(store, f),
    listIds: (f, max) => listIds(store, f, max),
    memoryFacets: (archived, tagLimit, tagSample) => memoryFacets(store, archived, tagLimit, tagSample),
    ownerStates: (ids) => ownerStates(store, ids),
    memoryHeads: () => memoryHeads(store),
    liveDuplicateCandidates: () => liveDuplicateCandidates(store),
    duplicateCandidate: (id) => duplicateCandidate(store, id),
    titlesOf: (ids) => titlesOf(store, ids),
    memoryRows: () => memoryRows(store),
    memoryRowPages: (pageSize) => memoryRowPages(store, pageSize),
    embeddingRows: () => embeddingRows(store),

    graphView: (f) => graphView(store, f),
    edgeRows: () => edgeRows(store),
    edgeRowPages: (pageSize) => edgeRowPages(store, pageSize),

    liveVectorRows: () => liveVectorRows(store),
    vectorRow: (id) => vectorRow(store, id),
    sourceRow: (id) => sourceRow(store, id),
    liveSourceRows: () => liveSourceRows(store),
    liveBodies: () => liveBodies(store),
    liveEntities: () => liveEntities(store),
    allEdges: () => allEdges(store),
    edgesOfType: (type) => edgesOfType(store, type),
    edgeTargets: (src, type) => edgeTargets(store, src, type),

    iterUsageRecords: (scope) => iterUsageRecords(store, scope),
    usageRecords: (ids) => usageRecords(store, ids),
    auditEvents: (f) => auditEvents(store, f),
    loggedRecalls: (limit) => loggedRecalls(store, limit),
    loggedResultIds: (queries, k) => loggedResultIds(store, queries, k),
    sessionAccessEvents: (channels) => sessionAccessEvents(store, channels),
    latestAccessEventId: () => latestAccessEventId(store),

    memoriesTouched: (changeId, limit) => memoriesTouched(store, changeId, limit),

    liveValueCounts: (column) => liveValueCounts(store, column),
    liveAndArchivedCounts: () => liveAndArchivedCounts(store),
    liveEdgeTypeCounts: () => liveEdgeTypeCounts(store),
    liveRetentionBucketCounts: (now, halfLifeHours, buckets) => liveRetentionBucketCounts(store, now, halfLifeHours, buckets),
    liveIdleBucketCounts: (now, buckets) => liveIdleBucketCounts(store, now, buckets),
    liveCount: () => liveCount(store),
    retentionSample: (now, halfLifeHours, step) => retentionSample(store, now, halfLifeHours, step),
    tableCounts: () => tableCounts(store),
    schemaVersions: () => schemaVersions(store),
    countsByColumn: (column, scope) => countsByColumn(store, column, scope),
    archivedCount: (scope) => archivedCount(store, scope),
    edgeCountsByType: () => edgeCountsByType(store),
    beliefDimensionCount: () => beliefDimensionCount(store),
    ownerSummaries: (limit) => ownerSummaries(store, limit),

    credentialById: (id) => credentialById(store, id),
    credentialByHash: (tokenHash) => credentialByHash(store, tokenHash),
    listCredentialRows: () => listCredentialRows(store),
    credentialRefs: () => credentialRefs(store),
    credentialUse: () => credentialUse(store),

    savedProfile: (name) => savedProfileRow(store, name),
    savedProfiles: () => savedProfileRows(store),

    feedRetention: () => feedRetention(store),
    feedStatus: () => feedStatus(store),
  };
}
