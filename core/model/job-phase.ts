/**
 * The phases of a long write (a reflection commit, an undo or redo in batches) and what to call
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
  /** Every row is written: the indexes are brought up to date and handed to the other processes. */
  | 'handover'
  /** After a cancel: what the job wrote is being taken back, so the store is left as it was. */
  | 'take-back';

export type JobUnit = 'rows' | 'items';

export const JOB_PHASES: Record<JobPhase, { label: string; unit: JobUnit }> = {
  check: { label: 'checking the store is the one planned on', unit: 'rows' },
  apply: { label: 'applying the accepted items', unit: 'items' },
  undo: { label: 'undoing', unit: 'rows' },
  redo: { label: 'redoing', unit: 'rows' },
  handover: { label: 'bringing the indexes up to date for the other processes', unit: 'rows' },
  'take-back': { label: 'taking back what was written', unit: 'rows' },
};

/** Where a long write is: `done` of `total` units of `phase`. */
export type JobProgressSink = (done: number, total: number, phase: JobPhase) => void;
