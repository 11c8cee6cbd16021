/**
 * The PostgreSQL adapter's side of the port's whole-table reads that are still each backend's own
 * (port.ts, `StoreQueries`): the row sources, paged and read ahead here, and the access log's reads,
 * each bound to the module that holds its SQL, as sqlite-queries.ts does for SQLite.
 */
import type { StoreQueries } from '../port/port.js';
import type { PgAudit } from './pg-audit.js';
import type { PgGraph } from './pg-graph.js';
import type { PgList } from './pg-list.js';
import type { PgMemoryQueries } from './pg-memory-queries.js';
import type { PgRowQueries } from './pg-row-queries.js';

export function pgQueries(
  rows: PgRowQueries,
  memories: PgMemoryQueries,
  audit: PgAudit,
  list: PgList,
  graph: PgGraph,
  feed: Pick<StoreQueries, 'feedStatus'>,
  erase: Pick<StoreQueries, 'planErase'>,
): StoreQueries {
  return {
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
    sessionAccessEvents: (channels) => memories.sessionAccessEvents(channels),
    auditEvents: (f) => audit.auditEvents(f),
    loggedRecalls: (limit) => audit.loggedRecalls(limit),
  };
}
