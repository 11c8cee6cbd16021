/**
 * What the CLI says on stderr while a big store's derived indexes are rebuilt (the first recall
 * after opening a store without current snapshots can take seconds per index at 100k memories):
 * one line as each starts, one as it passes each quarter (throttled to those, so a log stays
 * short), one as it ends, so a long pause reads as work, not a hang. At exit it says whether what
 * it built was kept beside the store for the next command, and if not, why not: a promise made
 * before the snapshot is written would be a guess. Small stores build in a blink and say nothing.
 */
import { indexLabel, type IndexBuildEvent, type IndexKeepEvent } from '../core/store/derived/index-snapshots.js';

/** Below this many memories a rebuild is quick enough not to mention. */
const MENTION_FROM = 10_000;
/** Progress is printed as a build passes each of these shares of its rows. */
const STEP_PERCENT = 25;

export function indexBuildReporter(err: (line: string) => void): (e: IndexBuildEvent) => void {
  let printed = 0;
  return (e) => {
    if (e.memories < MENTION_FROM) return;
    const label = indexLabel(e.index);
    if (e.phase === 'start') {
      printed = 0;
      err(`Building the ${label} over ${e.memories.toLocaleString('en-US')} memories…`);
    } else if (e.phase === 'progress') {
      const percent = e.total ? Math.floor((100 * (e.done ?? 0)) / e.total) : 0;
      const step = Math.floor(percent / STEP_PERCENT) * STEP_PERCENT;
      if (step > printed && step < 100) {
        printed = step;
        err(`Building the ${label}… ${step} %`);
      }
    } else err(`Built the ${label} in ${((e.ms ?? 0) / 1000).toFixed(1)} s`);
  };
}

/** "a, b and c" */
function listed(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** At close: one line for the indexes kept, one per index that was not (with the reason). */
export function indexKeepReporter(err: (line: string) => void): (kept: IndexKeepEvent[]) => void {
  return (events) => {
    const big = events.filter((e) => e.memories >= MENTION_FROM);
    const kept = big.filter((e) => e.kept).map((e) => indexLabel(e.index));
    if (kept.length) err(`Kept the ${listed(kept)} beside the store: the next command reads ${kept.length === 1 ? 'it' : 'them'} instead of building again`);
    for (const e of big.filter((x) => !x.kept)) err(`Did not keep the ${indexLabel(e.index)}: ${e.reason ?? 'no snapshot was written'}; the next command builds it again`);
  };
}
