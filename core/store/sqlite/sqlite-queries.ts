/**
 * The SQLite adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): each
 * method hands the store to the query module that holds its SQL. The modules stay as they are, one
 * responsibility each; this file only binds them to one store, so nothing above core/store/ imports
 * them.
 */
import { auditEvents } from './access-queries.js';
import { allEdges, edgesOfType, edgeTargets, liveBodies, liveEntities, liveSourceRows, liveVectorRows, sourceRow, vectorRow } from './derived-sources.js';
import { memoryFacets } from './facets.js';
import { feedRetention, feedStatus } from './feed-retention.js';
import { edgeRowPages, edgeRows, embeddingRows, memoryRowPages, memoryRows } from './fingerprint-rows.js';
import { graphView } from './graph-query.js';
import { listIds } from './list-ids.js';
import { listMemories } from './list-query.js';
import { loggedRecalls, loggedResultIds } from './logged-recalls.js';
import { latestAccessEventId, sessionAccessEvents } from './session-events.js';
import type { StoreQueries } from '../port/port.js';
import { planErase, type EraseStore } from '../shared/erase-run.js';
import { sqliteEraseBackend } from './sqlite-erase.js';

export function sqliteQueries(store: EraseStore): StoreQueries {
  const erasing = sqliteEraseBackend(store);
  return {
    planErase: (selector) => planErase(store, erasing, selector),
    listMemories: (f) => listMemories(store, f),
    listIds: (f, max) => listIds(store, f, max),
    memoryFacets: (archived, tagLimit, tagSample) => memoryFacets(store, archived, tagLimit, tagSample),
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

    auditEvents: (f) => auditEvents(store, f),
    loggedRecalls: (limit) => loggedRecalls(store, limit),
    loggedResultIds: (queries, k) => loggedResultIds(store, queries, k),
    sessionAccessEvents: (channels) => sessionAccessEvents(store, channels),
    latestAccessEventId: () => latestAccessEventId(store),



    feedRetention: () => feedRetention(store),
    feedStatus: () => feedStatus(store),
  };
}
