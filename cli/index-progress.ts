/**
 * What the CLI says on stderr while a big store's derived indexes are rebuilt (the first recall
 * after opening a store without current snapshots can take seconds per index at 100k memories):
 * one line as each starts, so a long pause reads as work, not a hang. Small stores build in a blink
 * and say nothing.
 */
import type { IndexBuildEvent } from '../core/store/index-snapshots.js';

/** Below this many memories a rebuild is quick enough not to mention. */
const MENTION_FROM = 10_000;

const LABELS: Record<string, string> = {
  'embed.vectors': 'vector index',
  'recall.corpus': 'recall corpus',
  'recall.mnemo.bm25.porter': 'keyword index',
  'recall.mnemo.bm25.plain': 'keyword index (unstemmed)',
  'recall.mnemo.entities': 'entity index',
  'recall.adjacency': 'link index',
};

export function indexBuildReporter(err: (line: string) => void): (e: IndexBuildEvent) => void {
  return (e) => {
    if (e.memories < MENTION_FROM) return;
    const label = LABELS[e.index] ?? e.index;
    if (e.phase === 'start') err(`Building the ${label} over ${e.memories.toLocaleString('en-US')} memories…`);
    else err(`Built the ${label} in ${((e.ms ?? 0) / 1000).toFixed(1)} s (kept beside the store for the next open when it has a change feed)`);
  };
}
