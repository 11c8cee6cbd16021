/**
 * Where the lab's relevance labels come from. A label source maps each query to the memories that
 * count as relevant for it; sources are looked up by name, so another rule (the "used later in the
 * session" rule of `mnemo tune log`) plugs in beside this one without touching the lab.
 */
import type { EngineReader } from '../../engine/engine.js';
import { badInput } from '../../errors.js';
import { LABEL_SOURCE_NAMES, type LabelSourceName } from './names.js';

export interface LabelSource {
  name: LabelSourceName;
  /** The rule and its bias, in one or two sentences, shown beside the metrics. */
  rule: string;
  labels(engine: EngineReader, queries: readonly string[], k: number): Map<string, string[]>;
}

/**
 * The proxy until the "used later" rule lands: what the logged recalls of the same query returned
 * in their top k. It measures agreement with the scorer that was running when the log was written,
 * not usefulness, so it favours that scorer: a profile that ranks differently scores lower even
 * when it ranks better.
 */
export const loggedTopK: LabelSource = {
  name: 'logged-top-k',
  rule: 'Proxy labels: a memory counts as relevant for a query when a logged recall of the same query returned it in its top k. This measures agreement with the scorer that wrote the log, not usefulness, so it favours that scorer.',
  labels: (engine, queries, k) => engine.store.queries.loggedResultIds(queries, k),
};

/** No labels: metrics are empty and the lab compares the rankings only (rank moves, overlap). */
export const noLabels: LabelSource = {
  name: 'none',
  rule: 'No labels: only the rank moves and the overlap of the two rankings are compared.',
  labels: () => new Map(),
};

export const LABEL_SOURCES: readonly LabelSource[] = [loggedTopK, noLabels];

export function labelSource(name: string): LabelSource {
  const source = LABEL_SOURCES.find((s) => s.name === name);
  if (!source) throw badInput(`unknown label source ${JSON.stringify(name)}; the sources are ${LABEL_SOURCE_NAMES.join(', ')}`, { field: 'labels' });
  return source;
}
