import type { EngineReader } from '../../engine/engine.js';
import type { ApiSession } from '../context.js';
import { ANY_PATH, permittedPath } from '../path-policy.js';
import type { StoreInfo } from '../contract/index.js';
import type { RedactionView } from '../contract/store.js';
import { redactionCounts, redactionPolicy, setRedactionPolicy } from '../../engine/redaction.js';
import { BUILT_IN_PATTERNS, totalOf } from '../../model/redaction.js';
import type { storeContract } from '../contract/store.js';
import type { HandlersFor } from './types.js';
import { storeDiff } from '../../observe/store-diff.js';
import { keptTableCounts } from '../../store/queries/counts.js';

export function storeInfo(engine: EngineReader, session?: Pick<ApiSession, 'clockFrozen'>): StoreInfo {
  const store = engine.store;
  const { counts, held } = keptTableCounts(store, engine.now());
  const versions = store.schemaVersions();
  return {
    path: store.path,
    name: store.name,
    profile: engine.profile(),
    readonly: store.readonly,
    nooa_schema_version: versions.nooa,
    mnemo_schema_version: versions.mnemo,
    data_version: store.dataVersion(),
    embedder: engine.embedder.name,
    dim: engine.embedder.dim,
    now: engine.now(),
    clock_frozen: session?.clockFrozen ?? false,
    counts: {
      memories: counts.memories,
      live: counts.memories - counts.archived,
      archived: counts.archived,
      edges: counts.edges,
      events: counts.events,
      changes: counts.changes,
    },
    counts_held: held,
  };
}

export const storeHandlers: HandlersFor<typeof storeContract> = {
  'store.open': (input, session) => {
    const path = permittedPath(session.shell.paths ?? ANY_PATH, input.path, 'store');
    return storeInfo(session.open(path, { readonly: input.readonly ?? false }), session);
  },
  'store.asOf': (input, session) => session.reading().store.asOf(input.at),
  'store.diff': (input, session) => storeDiff(session.reading().store, input.from, input.to, { includeAccesses: input.include_accesses, limit: input.limit }),
  'store.info': (_input, session) => storeInfo(session.engine(), session),
  'store.replicas': (_input, session) => ({ replicas: session.reading().store.replicas() }),
  'store.redaction': (_input, session) => redactionView(session.engine()),
  'store.setRedaction': (input, session) => {
    const engine = session.engine();
    const current = redactionPolicy(engine.store);
    setRedactionPolicy(engine.store, {
      enabled: input.enabled ?? current.enabled,
      optional: input.optional ?? current.optional,
      custom: input.custom ?? current.custom,
    });
    return redactionView(engine);
  },
};

function redactionView(engine: EngineReader): RedactionView {
  const policy = redactionPolicy(engine.store);
  const counts = redactionCounts(engine.store);
  return {
    enabled: policy.enabled,
    patterns: [
      ...BUILT_IN_PATTERNS.map((p) => ({ kind: p.kind, description: p.description, source: p.source, built_in: true, optional: p.optional === true, on: policy.enabled && (!p.optional || policy.optional.includes(p.kind)) })),
      ...policy.custom.map((p) => ({ kind: p.kind, description: p.description ?? 'your own pattern', source: p.pattern, built_in: false, optional: false, on: policy.enabled })),
    ],
    counts,
    total: totalOf(counts),
  };
}
