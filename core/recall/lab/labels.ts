/**
 * Where the lab's relevance labels come from. A label source maps each query to the memories that
 * count as relevant for it; sources are looked up by name. The default is the "used later in the
 * session" rule where the log labels the queries by it, else the logged-top-k proxy.
 */
import { extensionKey, type EngineReader } from '../../engine/engine.js';
import { badInput } from '../../errors.js';
import { loggedSessions } from '../used-later.js';
import { LABEL_SOURCE_NAMES, type LabelSourceName } from './names.js';
import { latestAccessEventId, loggedResultIds } from '../../store/queries/access-log.js';

export interface LabelSource {
  name: LabelSourceName;
  /** The rule and its bias, in one or two sentences, shown beside the metrics. */
  rule: string;
  labels(engine: EngineReader, queries: readonly string[], k: number): Map<string, string[]>;
}

/**
 * Query → the memories a session used after recalling it, over the whole log, kept until the log
 * grows (the lab itself logs nothing, so a lab session pays for the pass once). One pass over the
 * session events: about 11 s on the 100k demo store, where every session recalls the common
 * queries, so reading only the sessions of the asked queries would read them all for every chunk.
 */
class UsedLaterLabels {
  private mark = -1;
  private byQuery = new Map<string, string[]>();

  of(engine: EngineReader, queries: readonly string[]): Map<string, string[]> {
    const mark = latestAccessEventId(engine.store);
    if (mark !== this.mark) {
      const byQuery = new Map<string, Set<string>>();
      for (const s of loggedSessions(engine.store)) {
        for (const q of s.queries) {
          let ids = byQuery.get(q.query);
          if (!ids) byQuery.set(q.query, (ids = new Set()));
          for (const id of q.relevant) ids.add(id);
        }
      }
      this.byQuery = new Map([...byQuery].map(([q, ids]) => [q, [...ids]]));
      this.mark = mark;
    }
    return new Map(queries.filter((q) => this.byQuery.has(q)).map((q) => [q, this.byQuery.get(q)!]));
  }
}

const USED_LATER = extensionKey('lab.used-later', () => new UsedLaterLabels());

/** The rule of `mnemo tune log` (recall/used-later.ts), over every session of the log. */
export const usedLater: LabelSource = {
  name: 'used-later',
  rule: 'Used later in the session: a memory counts as relevant for a query when a session recalled the query and then dereferenced or reinforced that memory. Only what was shown can be used, so it favours the scorer that wrote the log (position bias), and memories used once are shown and used again (popularity).',
  labels: (engine, queries) => engine.get(USED_LATER).of(engine, queries),
};

/**
 * A proxy for stores whose log has no used recalls: what the logged recalls of the same query
 * returned in their top k. It measures agreement with the scorer that was running when the log
 * was written, not usefulness, so it favours that scorer: a profile that ranks differently scores
 * lower even when it ranks better.
 */
export const loggedTopK: LabelSource = {
  name: 'logged-top-k',
  rule: 'Proxy labels (logged top k): a memory counts as relevant for a query when a logged recall of the same query returned it in its top k. This measures agreement with the scorer that wrote the log, not usefulness, so it favours that scorer.',
  labels: (engine, queries, k) => loggedResultIds(engine.store, queries, k),
};

/** No labels: metrics are empty and the lab compares the rankings only (rank moves, overlap). */
export const noLabels: LabelSource = {
  name: 'none',
  rule: 'No labels: only the rank moves and the overlap of the two rankings are compared.',
  labels: () => new Map(),
};

export const LABEL_SOURCES: readonly LabelSource[] = [usedLater, loggedTopK, noLabels];

/**
 * The labels of the queries under a source named, or with no name under the default: used-later
 * when the log labels any of these queries by it, else the logged-top-k proxy.
 */
export function labelsFor(engine: EngineReader, name: string | undefined, queries: readonly string[], k: number): { source: LabelSource; labels: Map<string, string[]> } {
  if (name === undefined) {
    const used = usedLater.labels(engine, queries, k);
    return used.size > 0 ? { source: usedLater, labels: used } : { source: loggedTopK, labels: loggedTopK.labels(engine, queries, k) };
  }
  const source = LABEL_SOURCES.find((s) => s.name === name);
  if (!source) throw badInput(`unknown label source ${JSON.stringify(name)}; the sources are ${LABEL_SOURCE_NAMES.join(', ')}`, { field: 'labels' });
  return { source, labels: source.labels(engine, queries, k) };
}
