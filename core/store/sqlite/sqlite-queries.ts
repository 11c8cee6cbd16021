/**
 * The SQLite adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): each
 * method hands the store to the query module that holds its SQL. The modules stay as they are, one
 * responsibility each; this file only binds them to one store, so nothing above core/store/ imports
 * them.
 */
import { auditEvents } from './access-queries.js';
import { liveBodies, liveSourceRows, liveVectorRows, sourceRow, vectorRow } from './derived-sources.js';
import { memoryFacets } from './facets.js';
import { feedStatus } from './feed-retention.js';
import { edgeRowPages, edgeRows, embeddingRows, memoryRowPages, memoryRows } from './fingerprint-rows.js';
import { graphView } from './graph-query.js';
import { listIds } from './list-ids.js';
import { listMemories } from './list-query.js';
import { loggedRecalls } from './logged-recalls.js';
import { sessionAccessEvents } from './session-events.js';
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

    auditEvents: (f) => auditEvents(store, f),
    loggedRecalls: (limit) => loggedRecalls(store, limit),
    sessionAccessEvents: (channels) => sessionAccessEvents(store, channels),

    feedStatus: () => feedStatus(store),
  };
}
