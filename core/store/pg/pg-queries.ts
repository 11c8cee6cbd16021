/**
 * The PostgreSQL adapter's side of the port's whole-table queries (port.ts, `StoreQueries`): the
 * methods written so far, bound to their SQL, and the rest throwing `unsupported` by name (the
 * list is checked by the compiler against what is left of the interface).
 */
import type { StoreQueries } from '../port/port.js';
import { notYetGroup } from './pg-not-yet.js';
import type { PgAudit } from './pg-audit.js';
import type { PgGraph } from './pg-graph.js';
import type { PgList } from './pg-list.js';
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
  | 'sessionAccessEvents'
  | 'latestAccessEventId'
  | 'auditEvents'
  | 'loggedRecalls'
  | 'loggedResultIds'
  | 'listMemories'
  | 'listIds'
  | 'memoryFacets'
  | 'graphView'
  | 'feedRetention'
  | 'feedStatus';

export function pgQueries(
  rows: PgRowQueries,
  memories: PgMemoryQueries,
  audit: PgAudit,
  list: PgList,
  graph: PgGraph,
  feed: Pick<StoreQueries, 'feedRetention' | 'feedStatus'>,
): StoreQueries {
  const written: Pick<StoreQueries, Written> = {
    ...feed,
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
    sessionAccessEvents: (channels) => memories.sessionAccessEvents(channels),
    latestAccessEventId: () => memories.latestAccessEventId(),
    auditEvents: (f) => audit.auditEvents(f),
    loggedRecalls: (limit) => audit.loggedRecalls(limit),
    loggedResultIds: (queries, k) => audit.loggedResultIds(queries, k),
  };
  const notYet = notYetGroup<Omit<StoreQueries, Written>>('queries', {});
  return { ...notYet, ...written };
}
