/**
 * The long write a session's store is running (a reflection apply, the undo or redo of a big
 * change, an erase): how far it is (n of N, an ETA) for a progress bar, and a cancel. One at a time per
 * store, so a second commit gets a clear "busy" instead of queueing behind the first.
 *
 * The work itself is paced in short transactions (store/shared/change-run.ts), so other callers, agents
 * included, are answered while it runs; `journal.progress` and `journal.cancel` are such calls.
 */
import { MnemoError } from '../../../errors.js';
import { extensionKey, type Engine, type EngineReader } from '../../../engine/engine.js';
import { callCancelled, jobNews } from '../../../engine/job-signals.js';
import type { WriteJobState } from '../../contract/journal.js';

export interface JobControl {
  /** n of N; `phase` names the part of the job they count (an erase: planning, erasing, scrubbing, reclaiming). */
  progress(done: number, total: number, phase?: string): void;
  cancelled(): boolean;
  /**
   * The job is past its point of no return (an erase's first write): from here a cancel is refused
   * and the job runs to its end. Throws the job's cancel when one was asked for before.
   */
  pastPointOfNoReturn(onCancelled: () => Error): void;
}

const IDLE: WriteJobState = { running: false, kind: null, phase: null, done: 0, total: 0, started_at: null, eta_s: null, cancelling: false, cancellable: false };

export class WriteJob {
  private state: WriteJobState = IDLE;
  private startedPerf = 0;

  constructor(private readonly engine: Engine) {}

  async run<T>(kind: string, cancellable: boolean, work: (ctl: JobControl) => Promise<T>): Promise<T> {
    if (this.state.running) throw new MnemoError('busy', `a ${this.state.kind} is still running on this store (${this.state.done} of ${this.state.total}); wait for it or cancel it with journal.cancel`);
    this.state = { ...IDLE, running: true, kind, started_at: this.engine.now(), cancellable };
    this.startedPerf = performance.now();
    jobNews();
    const ctl: JobControl = {
      progress: (done, total, phase) => {
        if (phase !== undefined && phase !== this.state.phase) this.startedPerf = performance.now();
        this.state = { ...this.state, done, total, ...(phase !== undefined ? { phase } : {}) };
        jobNews();
      },
      // The host's cancel (the caller went away, or journal.cancel reached the host first) counts as soon as it is written.
      cancelled: () => this.state.cancelling || (this.state.cancellable && callCancelled()),
      pastPointOfNoReturn: (onCancelled) => {
        if (ctl.cancelled()) throw onCancelled();
        this.state = { ...this.state, cancellable: false };
        jobNews();
      },
    };
    try {
      return await work(ctl);
    } finally {
      this.state = IDLE;
      jobNews();
    }
  }

  progress(): WriteJobState {
    const s = this.state;
    if (!s.running || s.done === 0 || s.total === 0) return s;
    const elapsed = (performance.now() - this.startedPerf) / 1000;
    return { ...s, eta_s: Math.round((elapsed / s.done) * (s.total - s.done)) };
  }

  cancel(): { cancelled: boolean } {
    if (!this.state.running || !this.state.cancellable) return { cancelled: false };
    this.state = { ...this.state, cancelling: true };
    jobNews();
    return { cancelled: true };
  }
}

const WRITE_JOB = extensionKey('write.job', (engine) => new WriteJob(engine));

export const writeJobOf = (engine: EngineReader): WriteJob => engine.get(WRITE_JOB);
