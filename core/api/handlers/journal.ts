import { agentOfMeta } from '../../store/port/attribution.js';
import { filteredCredentialId, type CredentialRef } from '../../model/agent-credential.js';
import type { ChangeSummary, StoreReader } from '../../store/port/port.js';
import type { NamedChange } from '../contract/journal.js';
import type { journalContract } from '../contract/journal.js';
import type { HandlersFor } from './types.js';
import { leaveIndexesCurrent } from '../../recall/indexes-after-change.js';
import { writeJobOf } from './shared/write-job.js';
import { credentialRefs } from '../../store/queries/credentials.js';
import { memoriesTouched } from '../../store/queries/journal-reads.js';

/**
 * Names each change for a UI: the first memories it touched, and its credential resolved here, once
 * per page, so a table needs no round trip per row to say who made it.
 */
function namer(store: StoreReader): (c: ChangeSummary) => NamedChange {
  const credentials = credentialRefs(store);
  const refOf = (id: string): CredentialRef => credentials.get(id) ?? { id, owner: null, label: null };
  return (c) => {
    const credential = c.credential_id === null ? null : refOf(c.credential_id);
    // Who wrote it: the credential's agent, the agent a credential-less agent session recorded, or (null) the operator.
    return { ...c, memory_ids: memoriesTouched(store, c.id, 3), credential, agent_owner: credential?.owner ?? agentOfMeta(c.meta) };
  };
}

export const journalHandlers: HandlersFor<typeof journalContract> = {
  'journal.progress': (_input, session) => writeJobOf(session.engine()).progress(),
  'journal.cancel': (_input, session) => writeJobOf(session.engine()).cancel(),
  'journal.history': (input, session) => {
    const store = session.reading().store;
    const credentialId = input.credential === undefined ? undefined : filteredCredentialId(input.credential);
    return store.journal.history(input.limit, input.offset, credentialId).map(namer(store));
  },
  'journal.rows': (input, session) => {
    const j = session.reading().store.journal;
    return { change: j.get(input.change_id), rows: j.rows(input.change_id) };
  },
  'journal.dependents': (input, session) => {
    const store = session.reading().store;
    const change = store.journal.get(input.change_id);
    const all = store.journal.dependents(input.change_id);
    const named = namer(store);
    return { change: named(change), dependents: all.slice(0, input.limit).map(named), total: all.length, rows: all.reduce((n, c) => n + c.rows, change.rows) };
  },
  // Paced like the apply itself: undoing a 100k-row change must not lock agents out either. A
  // cancel writes back what the undo or redo had done (the take-back phase) and the call fails
  // with details.cancelled: true.
  'journal.undo': (input, session) => {
    const engine = session.engine();
    const pacing = session.runPacing ?? {};
    if (input.with_dependents) {
      // No owner scope here: the doors that reach journal.undo (CLI, HTTP, IPC) act for the local user.
      return writeJobOf(engine).run('journal.undo', true, async (job) => {
        const r = await engine.store.runs.undoWithDependents(input.change_id, { pacing, onProgress: job.progress, shouldCancel: job.cancelled });
        return { ...r.change, dependents_undone: r.undone.slice(0, -1) };
      });
    }
    return writeJobOf(engine).run('journal.undo', true, (job) => engine.store.runs.replayInBatches({ undo: input.change_id }, pacing, job.progress, leaveIndexesCurrent(engine), job.cancelled));
  },
  'journal.redo': (input, session) => {
    const engine = session.engine();
    return writeJobOf(engine).run('journal.redo', true, (job) => engine.store.runs.replayInBatches({ redo: input.change_id }, session.runPacing ?? {}, job.progress, leaveIndexesCurrent(engine), job.cancelled));
  },
};
