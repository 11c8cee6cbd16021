import { redoInBatches, undoInBatches } from '../../store/change-run.js';
import type { journalContract } from '../contract/journal.js';
import type { HandlersFor } from './types.js';
import { writeJobOf } from './shared/write-job.js';

export const journalHandlers: HandlersFor<typeof journalContract> = {
  'journal.progress': (_input, session) => writeJobOf(session.engine()).progress(),
  'journal.cancel': (_input, session) => writeJobOf(session.engine()).cancel(),
  'journal.history': (input, session) => session.engine().store.journal.history(input.limit, input.offset),
  'journal.rows': (input, session) => {
    const j = session.engine().store.journal;
    return { change: j.get(input.change_id), rows: j.rows(input.change_id) };
  },
  // Paced like the apply itself: undoing a 100k-row change must not lock agents out either.
  'journal.undo': (input, session) => {
    const engine = session.engine();
    return writeJobOf(engine).run('journal.undo', false, (job) => undoInBatches(engine.store, input.change_id, {}, job.progress));
  },
  'journal.redo': (input, session) => {
    const engine = session.engine();
    return writeJobOf(engine).run('journal.redo', false, (job) => redoInBatches(engine.store, input.change_id, {}, job.progress));
  },
};
