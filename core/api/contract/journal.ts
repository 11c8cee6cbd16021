/**
 * The change journal: every change, its before and after images, undo and redo (paced, as one long
 * write), and the progress and cancel of the running long write.
 */
import { z } from 'zod';
import type { CredentialRef } from '../../model/agent-credential.js';
import type { JobPhase, JobUnit } from '../../model/job-phase.js';
import { method } from '../define.js';
import { credentialFilterField } from './shared/fields.js';
import type { ChangeRow, ChangeSummary } from '../../store/port/port.js';

/** The running long write (core/api/handlers/shared/write-job.ts). */
export interface WriteJobState {
  running: boolean;
  kind: string | null;
  /** What it is doing now (model/job-phase.ts): check, apply, undo, redo, handover, hold, take-back, and an erase's planning, erasing, scrubbing, reclaiming; null before its first report. */
  phase: JobPhase | null;
  /** The phase in words ("taking back what was written"). */
  phase_label: string | null;
  /** What `done` and `total` count in this phase: rows or (accepted) items. */
  unit: JobUnit | null;
  /** Units of the current phase done, of `total`: only the work the job will actually do. */
  done: number;
  total: number;
  /** From the store's clock. */
  started_at: number | null;
  /** Seconds since it started (a monotonic timer). */
  elapsed_s: number | null;
  /** Seconds left in the current phase at the pace measured over its last seconds; null until there is a pace, and once a cancel interrupts the phase. */
  eta_s: number | null;
  /** A cancel was asked for; the job stops at its next look and takes back what it wrote. */
  cancelling: boolean;
  /** Whether this job can be cancelled now (an erase only until its first write). */
  cancellable: boolean;
}

/**
 * A change with the first memories it touched, so a UI can name it by their titles, and the agent
 * credential that made it (null: made without one, by the workbench, the CLI or a stdio agent).
 */
export type NamedChange = ChangeSummary & {
  memory_ids: string[];
  credential: CredentialRef | null;
  /** The agent (role@instance) that made it: its credential's owner, or the agent a session without a credential recorded; null: the operator (workbench, CLI). */
  agent_owner: string | null;
};

const changeId = z.number().int('a change id is a whole number').min(1, 'a change id is 1 or more');

export const journalContract = {
  'journal.progress': method<WriteJobState>()({
    description:
      'Where the running long write (reflect.apply, a big journal.undo or journal.redo, memory.erase) is: its phase, n of N of that phase (a commit counts its accepted items, an undo or redo its rows, an erase its memories) and an ETA from the pace it has kept, for a progress bar.',
    input: z.object({}),
  }),
  'journal.cancel': method<{ cancelled: boolean }>()({
    description:
      'Cancel the running long write (reflect.apply, journal.undo, journal.redo): it stops at its next look, takes back what it wrote (journal.progress shows that as the take-back phase) and leaves the store as it was; the call that started it then fails with details.cancelled: true. A memory.erase can be cancelled while it plans (nothing is erased), not past its first write.',
    input: z.object({}),
    mutates: true,
  }),
  'journal.history': method<NamedChange[]>()({
    description:
      'The change journal, newest first: id, time, label, kind, counts, state, up to 3 memories each change touched (memory_ids, so a UI can name it by their titles) and the credential that made it (label and owner; null when made without one). credential narrows it to one credential\'s changes, or "local" to those made without one.',
    input: z.object({
      limit: z.number().int().min(1).max(10_000).optional().default(100),
      offset: z.number().int().min(0).optional().default(0),
      credential: credentialFilterField.optional(),
    }),
  }),
  'journal.rows': method<{ change: ChangeSummary; rows: ChangeRow[] }>()({
    description: 'The before and after images of every row one change touched.',
    input: z.object({ change_id: z.number().int().min(1) }),
  }),
  'journal.dependents': method<{ change: NamedChange; dependents: NamedChange[]; total: number; rows: number }>()({
    description:
      'The later, still-applied changes that depend on a change (they touched a row it touched, or a row one of them touched), newest first: what journal.undo with with_dependents would undo before it. Each names up to 3 memories it touched (memory_ids, for titles); rows counts the journal rows of the whole group.',
    input: z.object({ change_id: changeId, limit: z.number().int().min(1).max(10_000).optional().default(100) }),
  }),
  'journal.undo': method<ChangeSummary & { dependents_undone?: ChangeSummary[] }>()({
    description:
      'Undo a change (restores its before images); refuses while a later change touched the same rows. with_dependents: true undoes those later changes too, newest first, then this one, as one step (all or nothing); dependents_undone lists them.',
    input: z.object({ change_id: changeId, with_dependents: z.boolean().optional().default(false) }),
    mutates: true,
  }),
  'journal.redo': method<ChangeSummary>()({
    description: 'Redo a change, or the most recently undone one.',
    input: z.object({ change_id: z.number().int().min(1).optional() }),
    mutates: true,
  }),
};
