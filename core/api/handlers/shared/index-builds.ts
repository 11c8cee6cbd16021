/**
 * The derived index an engine is building right now, for a progress bar: the build reports
 * (IndexSnapshots.watch) folded into one state that `recall.indexBuild` returns. A recall handler
 * prepares its indexes in steps (recall/pipeline.ts prepareRecallIndexes), so the poll is answered
 * while the build runs.
 */
import { extensionKey, type EngineReader } from '../../../engine/engine.js';
import { ThroughputMeter } from '../../../model/throughput.js';
import { indexLabel, type IndexBuildEvent } from '../../../store/derived/index-snapshots.js';
import type { IndexBuildState } from '../../contract/recall.js';

export class IndexBuilds {
  private state: IndexBuildState = { building: null };
  /** The pace of the build under way (a new index starts a new one). */
  private meter = new ThroughputMeter();
  private readonly unwatch: () => void;

  constructor(engine: EngineReader) {
    this.unwatch = engine.indexSnapshots.watch((e) => this.note(e));
  }

  current(): IndexBuildState {
    const b = this.state.building;
    // Milliseconds of a monotonic timer: the build's pace, not an instant it records.
    return b ? { building: { ...b, eta_s: this.meter.etaSeconds(performance.now()) } } : this.state;
  }

  dispose(): void {
    this.unwatch();
  }

  private note(e: IndexBuildEvent): void {
    if (e.phase === 'done') {
      this.state = { building: null };
      return;
    }
    const total = e.total ?? e.memories;
    if (e.phase === 'start' || this.state.building?.index !== e.index) this.meter = new ThroughputMeter();
    const done = Math.min(e.done ?? 0, total);
    this.meter.note(done, total, performance.now());
    this.state = { building: { index: e.index, label: indexLabel(e.index), memories: e.memories, done, total, eta_s: null } };
  }
}

const INDEX_BUILDS = extensionKey(
  'index.builds',
  (engine) => new IndexBuilds(engine),
  (builds) => builds.dispose(),
);

/** The engine's build tracker, created on first use (before the builds it should see). */
export const indexBuildsOf = (engine: EngineReader): IndexBuilds => engine.get(INDEX_BUILDS);
