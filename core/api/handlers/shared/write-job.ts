/**
 * The long write a session's store is running (a reflection commit, the undo or redo of a big
 * change, an erase): which phase it is in, how far (n of N of that phase's units, an ETA from the
 * pace it has kept), and a cancel. One at a time per store, so a second commit gets a clear "busy"
 * instead of queueing behind the first.
 *
 * The work itself is paced in short transactions (store/shared/change-run.ts), so other callers, agents
 * included, are answered while it runs; `journal.progress` and `journal.cancel` are such calls.
 *
 * A cancel is seen at once: `cancelling` is true from the moment it is asked, and the ETA of the
 * phase it interrupted is withdrawn (the job will not finish that phase). The job then stops at its
 * next look and takes back what it wrote, a phase with its own count and ETA ('take-back').
 * `cancel()` only sets a flag, so any door may call it at any time, also when its caller goes away
 * (api/call-signal.ts).
 */
import { MnemoError } from '../../../errors.js';
import { extensionKey, type Engine, type EngineReader } from '../../../engine/engine.js';
import { callCancelled, jobNews } from '../../../engine/job-signals.js';
import { JOB_PHASES, type JobPhase, type JobProgressSink } from '../../../model/job-phase.js';
import { ThroughputMeter } from '../../../model/throughput.js';
import { onCallerGone } from '../../call-signal.js';
import type { WriteJobState } from '../../contract/journal.js';

export interface JobControl {
  /** `done` of `total` units of `phase`; a new phase starts its count and its pace afresh. */
  progress: JobProgressSink;
  /** Whether a cancel was asked for (the job stops at its next look and takes back what it wrote). */
  cancelled(): boolean;
  /**
   * The job is past its point of no return (an erase's first write): from here a cancel is refused
   * and the job runs to its end. Throws the job's cancel when one was asked for before.
   */
  pastPointOfNoReturn(onCancelled: () => Error): void;
}

interface Running {
  kind: string;
  cancellable: boolean;
  startedAt: number;
  startedMs: number;
  phase: JobPhase | null;
  done: number;
  total: number;
  cancelling: boolean;
  meter: ThroughputMeter;
}

const IDLE: WriteJobState = {
  running: false,
  kind: null,
  phase: null,
  phase_label: null,
  unit: null,
  done: 0,
  total: 0,
  started_at: null,
  elapsed_s: null,
  eta_s: null,
  cancelling: false,
  cancellable: false,
};

export class WriteJob {
  private job: Running | null = null;

  constructor(
    private readonly engine: Pick<Engine, 'now'>,
    /** Milliseconds of a monotonic timer: the pace of the work, not an instant it records. */
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  async run<T>(kind: string, cancellable: boolean, work: (ctl: JobControl) => Promise<T>): Promise<T> {
    const busy = this.job;
    if (busy) throw new MnemoError('busy', `a ${busy.kind} is still running on this store (${busy.done} of ${busy.total}); wait for it or cancel it with journal.cancel`);
    const job: Running = { kind, cancellable, startedAt: this.engine.now(), startedMs: this.monotonic(), phase: null, done: 0, total: 0, cancelling: false, meter: new ThroughputMeter() };
    this.job = job;
    jobNews();
    const ctl: JobControl = {
      progress: (done, total, phase) => {
        const at = this.monotonic();
        if (phase !== job.phase) {
          job.phase = phase;
          job.meter = new ThroughputMeter();
        }
        job.done = done;
        job.total = total;
        job.meter.note(done, total, at);
        jobNews();
      },
      cancelled: () => {
        // The host's cancel (the caller went away, or journal.cancel reached the host first) is read
        // from shared memory while the job holds its thread, before the cancel's message is.
        if (!job.cancelling && job.cancellable && callCancelled()) {
          job.cancelling = true;
          jobNews();
        }
        return job.cancelling;
      },
      pastPointOfNoReturn: (onCancelled) => {
        if (ctl.cancelled()) throw onCancelled();
        job.cancellable = false;
        jobNews();
      },
    };
    const forget = onCallerGone(() => this.cancel());
    try {
      return await work(ctl);
    } finally {
      forget();
      if (this.job === job) this.job = null;
      jobNews();
    }
  }

  progress(): WriteJobState {
    const job = this.job;
    if (!job) return IDLE;
    const at = this.monotonic();
    const phase = job.phase;
    // A phase the cancel interrupted will not be finished: its ETA would only grow. Steps are not
    // alike (patching the indexes, then writing their snapshots), so their pace predicts nothing.
    const eta = phase === null || (job.cancelling && phase !== 'take-back') || JOB_PHASES[phase].unit === 'steps' ? null : job.meter.etaSeconds(at);
    return {
      running: true,
      kind: job.kind,
      phase,
      phase_label: phase === null ? null : JOB_PHASES[phase].label,
      unit: phase === null ? null : JOB_PHASES[phase].unit,
      done: job.done,
      total: job.total,
      started_at: job.startedAt,
      elapsed_s: Math.round((at - job.startedMs) / 100) / 10,
      eta_s: eta,
      cancelling: job.cancelling,
      cancellable: job.cancellable,
    };
  }

  /** Asks the running job to stop and take back what it wrote; false when none runs (or it cannot be cancelled). */
  cancel(): { cancelled: boolean } {
    const job = this.job;
    if (!job || !job.cancellable) return { cancelled: false };
    job.cancelling = true;
    jobNews();
    return { cancelled: true };
  }
}

const WRITE_JOB = extensionKey('write.job', (engine) => new WriteJob(engine));

export const writeJobOf = (engine: EngineReader): WriteJob => engine.get(WRITE_JOB);
