/**
 * History: the change journal, newest first. Each change shows its time, label, counts and the
 * credential that made it (filterable by credential), and expands to the rows it touched (before → after); undo and redo act on it. A refused undo lists
 * the later changes that depend on the change and offers to undo them with it, as one step. While
 * an undo or redo runs, a bar shows its rows done, the time left and Cancel (a big change takes
 * a minute at 100k memories); a cancel writes back what it had done, and the change is as it was.
 */
import { Fragment, useState } from 'react';
import type { NamedChange } from '../../../core/api/contract/journal.js';
import { ApiError } from '../../api/client.js';
import { useHeads, useHistory, useRedo, useUndo } from '../../api/curation.js';
import { useCancelWriteJob, useWriteJobProgress, wasCancelled } from '../../api/jobs.js';
import { JobProgress } from '../../components/JobProgress.js';
import { EmptyState, ErrorBox, fmtTime, Spinner } from '../../components/common.js';
import { WriterName } from '../../components/credential.js';
import { CredentialFilter } from '../../components/CredentialFilter.js';
import { useCredentials } from '../../api/credentials.js';
import { credentialParam } from '../../state/credential-param.js';
import { buildHash, navigate, useRoute } from '../../state/router.js';
import { ChangeRows } from './ChangeRows.js';
import { changeName } from './change-name.js';
import { DependentsOffer, refusedForDependents } from './DependentsOffer.js';
import { countsLabel } from './image-diff.js';
import './history.css';
import { asSentence } from '../../api/errors.js';

const PAGE = 100;

/**
 * Why an undo was refused. When later changes depend on it, the list of them (by name) and the
 * button that undoes them with it; otherwise the engine's reason.
 */
function Refusal({ error, changeId, onUndone }: { error: unknown; changeId: number | undefined; onUndone: () => void }) {
  if (!error || wasCancelled(error)) return null;
  const blockers = error instanceof ApiError && Array.isArray(error.details?.['blocked_by']) ? (error.details['blocked_by'] as number[]) : [];
  return (
    <div className="error" role="alert" data-testid="undo-refused" data-blocked-by={blockers.join(',')}>
      <strong>Undo refused.</strong>{' '}
      {changeId !== undefined && refusedForDependents(error) ? <DependentsOffer changeId={changeId} onUndone={onUndone} /> : asSentence((error as Error).message)}
    </div>
  );
}

export function HistoryView() {
  const route = useRoute();
  const open = route.params.has('change') ? Number(route.params.get('change')) : null;
  const page = Math.max(0, Number(route.params.get('page') ?? 0) || 0);
  const credentials = useCredentials();
  const credential = credentialParam(route.params.get('credential'), credentials.data?.credentials, 'changes');
  const q = useHistory(PAGE, page * PAGE, credential.value, credential.ready);
  const undo = useUndo();
  const redo = useRedo();
  const replaying = undo.isPending || redo.isPending;
  const job = useWriteJobProgress(replaying);
  const cancelJob = useCancelWriteJob();
  const startUndo = (id: number) => {
    cancelJob.reset();
    redo.reset();
    undo.mutate(id, { onSettled: () => setActed(id) });
  };
  const startRedo = (id: number | undefined) => {
    cancelJob.reset();
    undo.reset();
    redo.mutate(id, { onSettled: () => (id === undefined ? undefined : setActed(id)) });
  };
  const cancelledNote = wasCancelled(undo.error)
    ? `Undo of change #${undo.variables} cancelled: the rows it had restored were written back; the change is applied, as before.`
    : wasCancelled(redo.error)
      ? `Redo${redo.variables === undefined ? '' : ` of change #${redo.variables}`} cancelled: the rows it had written were taken back; the change is still undone, as before.`
      : null;
  const [acted, setActed] = useState<number | null>(null);
  const setParams = (patch: Record<string, string | number | null>) =>
    navigate(buildHash('history', null, { change: open, page: page || null, credential: credential.ready ? credential.value : route.params.get('credential'), ...patch }), { replace: true });
  const rows: NamedChange[] = q.data ?? [];
  // Labels name memories by id prefix ("edit 38e52993 (importance)"); show their titles instead.
  const heads = useHeads(rows.flatMap((c) => c.memory_ids));
  const lastUndone = rows.filter((c) => c.state === 'undone').sort((a, b) => (b.undone_at ?? 0) - (a.undone_at ?? 0))[0];

  return (
    <div className="history-view">
      <div className="history-head">
        <h2>History</h2>
        <p className="muted">Every change made through the engine — by the workbench, the CLI or an agent — as one journal entry. Undo writes the rows back as they were; redo writes the change again.</p>
        <div className="row">
          <button onClick={() => startRedo(undefined)} disabled={!lastUndone || replaying} data-testid="redo-last" title="Redo the most recently undone change">
            Redo last undone{lastUndone ? ` (#${lastUndone.id})` : ''}
          </button>
          {wasCancelled(redo.error) ? null : <ErrorBox error={redo.error} />}
          <CredentialFilter value={credential.value} credentials={credentials.data?.credentials ?? []} onChange={(v) => setParams({ credential: v, page: null, change: null })} testId="history-credential" />
          <a className="button" href={`#${buildHash('history', 'diff')}`} data-testid="open-diff" title="Every change between two instants, by any writer (agents and other programs too)">
            What changed between two instants…
          </a>
        </div>
        {credential.error ? (
          <div className="error" role="alert" data-testid="url-param-error">
            {credential.error}
          </div>
        ) : null}
      </div>
      {replaying ? (
        <div className="history-job">
          <JobProgress
            what={undo.isPending ? `Undoing change #${undo.variables}` : redo.variables === undefined ? 'Redoing the last undone change' : `Redoing change #${redo.variables}`}
            progress={job.data}
            cancelPressed={cancelJob.isPending || cancelJob.data?.cancelled === true}
            onCancel={() => cancelJob.mutate()}
            testId="history-job"
          />
        </div>
      ) : null}
      {cancelledNote ? (
        <p className="muted" role="status" data-testid="history-job-cancelled">
          {cancelledNote}
        </p>
      ) : null}
      <Refusal
        error={undo.error}
        changeId={undo.variables}
        onUndone={() => {
          setActed(undo.variables ?? null);
          undo.reset();
        }}
      />
      <ErrorBox error={q.error} />
      {q.isLoading ? <Spinner label="Loading the journal…" /> : null}
      {q.data && rows.length === 0 && page === 0 && credential.value !== null ? <EmptyState title="No change matches">No change in the journal was made with the chosen credential. Pick another, or “any”.</EmptyState> : null}
      {q.data && rows.length === 0 && page === 0 && credential.value === null ? (
        <EmptyState title="No changes yet">Edits, merges, reflection passes and imports appear here, each one undoable. Try editing a memory's title or committing a reflection plan.</EmptyState>
      ) : null}
      {rows.length ? (
        <table className="history-table">
          <thead>
            <tr>
              <th>#</th>
              <th>when</th>
              <th>change</th>
              <th>kind</th>
              <th title="who made the change: an agent (its owner, and the credential it used), or the operator (the workbench or the CLI)">by</th>
              <th>rows</th>
              <th>state</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <Fragment key={c.id}>
                <tr
                  className={`${c.id === open ? 'selected' : ''}${c.state === 'undone' ? ' undone' : ''}${c.id === acted ? ' acted' : ''}`}
                  data-testid="history-row"
                  data-change-id={c.id}
                  data-state={c.state}
                  data-kind={c.kind}
                  onClick={() => setParams({ change: c.id === open ? null : c.id })}
                >
                  <td className="mono">{c.id}</td>
                  <td className="nowrap">{fmtTime(c.ts)}</td>
                  <td>
                    <span className="expander">{c.id === open ? '▾' : '▸'}</span> {changeName(c.label, c.memory_ids, (id) => heads.data?.get(id)?.head)}
                  </td>
                  <td className="muted small">{c.kind}</td>
                  <td className="small nowrap" data-testid="history-credential-cell">
                    <WriterName credential={c.credential} agentOwner={c.agent_owner} />
                  </td>
                  <td className="small">{countsLabel(c.counts)}</td>
                  <td>
                    <span className={`badge ${c.state === 'undone' ? 'warn' : 'ok'}`}>{c.state}</span>
                    {c.state === 'undone' && c.undone_at ? <span className="muted small"> {fmtTime(c.undone_at)}</span> : null}
                  </td>
                  <td onClick={(e) => e.stopPropagation()}>
                    {c.state === 'applied' ? (
                      <button data-testid="undo-button" disabled={replaying} onClick={() => startUndo(c.id)}>
                        Undo
                      </button>
                    ) : (
                      <button data-testid="redo-button" disabled={replaying} onClick={() => startRedo(c.id)}>
                        Redo
                      </button>
                    )}
                  </td>
                </tr>
                {c.id === open ? (
                  <tr className="history-detail">
                    <td colSpan={8}>
                      {c.meta ? (
                        <details className="muted small">
                          <summary>metadata</summary>
                          <pre>{JSON.stringify(c.meta, null, 2)}</pre>
                        </details>
                      ) : null}
                      <ChangeRows changeId={c.id} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      ) : null}
      {rows.length === PAGE || page > 0 ? (
        <div className="pager">
          <button disabled={page === 0} onClick={() => setParams({ page: page - 1 || null })}>
            Newer
          </button>
          <button disabled={rows.length < PAGE} onClick={() => setParams({ page: page + 1 })}>
            Older
          </button>
        </div>
      ) : null}
    </div>
  );
}
