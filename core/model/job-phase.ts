/**
 * The phases of a long write (a reflection commit, an undo or redo in batches, an erase) and what to call
 * each, so the workbench, the CLI and the API say the same words about the same work. Each phase
 * counts its own units: a bar restarts at 0 when the phase changes, and its ETA is measured on
 * that phase alone (model/throughput.ts).
 */
export type JobPhase =
  /** A commit reads every memory and edge to check the store is the one the plan was made on. */
  | 'check'
  /** A commit applies its accepted items. */
  | 'apply'
  /** An undo restores the rows a change wrote. */
  | 'undo'
  /** A redo writes a change's rows again. */
  | 'redo'
  /** Every row is written: the indexes are brought up to date and their snapshots written, for the other processes. */
  | 'handover'
  /** The snapshots are announced: a few seconds for the other processes to load them before the change ends. */
  | 'hold'
  /** After a cancel: what the job wrote is being taken back, so the store is left as it was. */
  | 'take-back'
  /** An erase works out what it will remove (cancellable: nothing is written yet). */
  | 'planning'
  /** An erase removes its memories and everything that holds their content. */
  | 'erasing'
  /** An erase scrubs a matched text from every other place, place by place. */
  | 'scrubbing'
  /** An erase makes the freed bytes go (SQLite VACUUM, PostgreSQL VACUUM FULL). */
  | 'reclaiming';

export type JobUnit = 'rows' | 'items' | 'memories' | 'steps' | 'seconds';

export const JOB_PHASES: Record<JobPhase, { label: string; unit: JobUnit }> = {
  check: { label: 'checking the store is the one planned on', unit: 'rows' },
  apply: { label: 'applying the accepted items', unit: 'items' },
  undo: { label: 'restoring the rows it changed', unit: 'rows' },
  redo: { label: 'writing its rows again', unit: 'rows' },
  handover: { label: 'bringing the indexes up to date for the other processes', unit: 'steps' },
  hold: { label: 'letting the other processes load the new indexes', unit: 'seconds' },
  'take-back': { label: 'taking back what was written', unit: 'rows' },
  planning: { label: 'working out what to erase', unit: 'steps' },
  erasing: { label: 'erasing the memories', unit: 'memories' },
  scrubbing: { label: 'scrubbing the text from every other place', unit: 'steps' },
  reclaiming: { label: 'making the freed bytes go', unit: 'steps' },
};

/** Where a long write is: `done` of `total` units of `phase`. */
export type JobProgressSink = (done: number, total: number, phase: JobPhase) => void;

/** What a long write hands the hook it runs once every row is written (the indexes' hand-over). */
export interface FinishControl {
  /** Whether a cancel was asked for: a wait in the hook ends early. */
  cancelled(): boolean;
  progress: JobProgressSink;
}

/**
 * Runs once every row of a long write is written, before its marker clears (ApplyOptions.beforeFinish).
 * `handsOverIndexes`: it leaves index snapshots for the others then and wants the other workers of
 * this process to wait for them, so the run's marker says so from the start and they hold their
 * indexes back until the end, as other processes do (run-marker.ts).
 */
export type BeforeFinish = ((ctl: FinishControl) => void | Promise<void>) & { readonly handsOverIndexes?: boolean };
