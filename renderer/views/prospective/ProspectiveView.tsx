/**
 * Prospective memory: what the agent meant to do. Pending intents (by deadline) and the ones that
 * fired (when, why, by whom), open todos, and a dry run of the scheduler (which pending intents
 * would fire for a message and events at a time; writes nothing).
 */
import { UtcTimeInput } from '../../components/time/UtcTimeInput.js';
import { fromInputValue } from '../../state/instant.js';
import { useState } from 'react';
import type { IntentListResult as IntentList, IntentView, TodoListResult as TodoList } from '../../../core/api/contract/index.js';
import { useDue, useIntents, useTodos } from '../../api/prospective.js';
import { EmptyState, ErrorBox, fmtNum, fmtTime, ownerLabel, QueryView } from '../../components/common.js';
import { memoryHref } from '../../state/router.js';
import '../../components/tables.css';
import './prospective.css';
import { plural } from '../../api/errors.js';

function Trigger({ i }: { i: IntentView }) {
  if (i.kind === 'time') return <span>at {fmtTime(i.fire_at)}</span>;
  if (i.kind === 'cue') return <span>when “{i.cue}” comes up</span>;
  if (i.kind === 'event') return <span>on event {i.cue}</span>;
  return <span className="muted">no usable trigger</span>;
}

function IntentTable({ rows, fired }: { rows: (IntentView & { overdue?: boolean })[]; fired: boolean }) {
  return (
    <table className="mini-table wide">
      <thead>
        <tr>
          <th>intent</th>
          <th>trigger</th>
          <th>owner</th>
          <th>{fired ? 'fired' : 'created'}</th>
          <th>todo</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((i) => (
          <tr key={i.id} data-testid="intent-row" data-state={i.state} data-memory-id={i.id} data-overdue={i.overdue ? 'true' : undefined} className={i.overdue ? 'overdue' : undefined}>
            <td>
              <a href={memoryHref(i.id)}>{i.head}</a>
              {i.overdue ? (
                <span className="badge warn" title="its time has passed and it has not fired: no agent has run the scheduler since">
                  overdue
                </span>
              ) : null}
            </td>
            <td>
              <Trigger i={i} />
            </td>
            <td className="small">{ownerLabel(i.owner)}</td>
            <td className="small">
              {fired ? (
                <>
                  {fmtTime(i.fired_at)}
                  {i.fired_reason ? <div className="muted">{i.fired_reason}</div> : null}
                  {i.fired_by ? <div className="muted">by {i.fired_by}</div> : null}
                </>
              ) : (
                fmtTime(i.created_at)
              )}
            </td>
            <td className="small">{i.todo_id ? <a href={memoryHref(i.todo_id)}>{i.todo_status ?? 'todo'}</a> : i.opens_todo ? <span className="muted">opens one</span> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DryRun() {
  const [message, setMessage] = useState('');
  const [events, setEvents] = useState('');
  const [at, setAt] = useState('');
  const [input, setInput] = useState<{ message?: string; events?: string[]; now?: number } | null>(null);
  const due = useDue(input);
  return (
    <section className="panel">
      <h3>
        Would fire? <span className="muted small">the scheduler as a dry run: nothing is written</span>
      </h3>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const t = at ? (fromInputValue(at) ?? undefined) : undefined;
          const ev = events.split(',').map((s) => s.trim()).filter(Boolean);
          setInput({ ...(message ? { message } : {}), ...(ev.length ? { events: ev } : {}), ...(t !== undefined && Number.isFinite(t) ? { now: t } : {}) });
        }}
      >
        <input className="grow" value={message} onChange={(e) => setMessage(e.target.value)} placeholder="a message the agent sees" data-testid="due-message" />
        <input value={events} onChange={(e) => setEvents(e.target.value)} placeholder="events, comma-separated" />
        <UtcTimeInput aria-label="Run the scheduler at (UTC)" value={at} onChange={(e) => setAt(e.target.value)} title="at (UTC, 24-hour); empty = the engine's now" />
        <button type="submit" data-testid="due-run">
          Check
        </button>
      </form>
      <ErrorBox error={due.error} />
      {due.data ? (
        due.data.rows.length ? (
          <ul data-testid="due-rows">
            {due.data.rows.map((r) => (
              <li key={r.id}>
                <a href={memoryHref(r.id)}>{r.head}</a> <span className="muted small">— {r.reason}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Nothing would fire at {fmtTime(due.data.now)}.</p>
        )
      ) : null}
    </section>
  );
}

function IntentPanels({ data }: { data: IntentList }) {
  const pending = data.rows.filter((r) => r.state === 'pending');
  const fired = data.rows.filter((r) => r.state === 'fired');
  const unscheduled = data.rows.filter((r) => r.state === 'unscheduled');
  return (
    <>
      <section className="panel" data-testid="intents-pending" data-count={pending.length}>
        <h3>
          Pending intents <span className="muted small">{data.counts.pending}</span>
          {data.overdue ? (
            <span className="badge warn" data-testid="intents-overdue">
              {data.overdue} overdue
            </span>
          ) : null}
        </h3>
        {pending.length ? <IntentTable rows={pending} fired={false} /> : <EmptyState title="Nothing pending">An intent with a time, cue or event trigger waits here until it fires.</EmptyState>}
        {unscheduled.length ? (
          <details>
            <summary className="muted small">{plural(unscheduled.length, 'intent')} without a usable trigger</summary>
            <IntentTable rows={unscheduled} fired={false} />
          </details>
        ) : null}
      </section>
      <section className="panel" data-testid="intents-fired" data-count={fired.length}>
        <h3>
          Fired <span className="muted small">{data.counts.fired}</span>
        </h3>
        {fired.length ? <IntentTable rows={fired} fired /> : <p className="muted">No intent has fired yet.</p>}
      </section>
    </>
  );
}

export function ProspectiveView() {
  const intents = useIntents('all');
  const todos = useTodos('open');
  return (
    <div className="prospective-view">
      <h2>Prospective memory</h2>
      <div className="prospective-grid">
        <QueryView query={intents} label="Reading intents…">
          {(data) => <IntentPanels data={data} />}
        </QueryView>
        <QueryView query={todos} label="Reading todos…">
          {(data) => <TodoPanel data={data} />}
        </QueryView>
        <DryRun />
      </div>
    </div>
  );
}

function TodoPanel({ data }: { data: TodoList }) {
  return (
    <section className="panel" data-testid="todos-open" data-count={data.rows.length}>
      <h3>
        Open todos <span className="muted small">{data.counts.open} open · {data.counts.done} done · {data.counts.dropped} dropped</span>
      </h3>
      <table className="mini-table wide">
        <thead>
          <tr>
            <th>todo</th>
            <th>importance</th>
            <th>open for</th>
            <th>owner</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((t) => (
            <tr key={t.id} data-testid="todo-row" data-memory-id={t.id}>
              <td>
                <a href={memoryHref(t.id)}>{t.head}</a>
                {t.from_intent ? <span className="muted small"> (from an intent)</span> : null}
              </td>
              <td>{fmtNum(t.importance, 2)}</td>
              <td className="small">{t.open_age_hours === null ? '—' : t.open_age_hours < 48 ? `${fmtNum(t.open_age_hours, 0)} h` : `${fmtNum(t.open_age_hours / 24, 0)} d`}</td>
              <td className="small">{ownerLabel(t.owner)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
