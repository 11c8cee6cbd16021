/**
 * Conflicts: what the store disagrees with itself about, most harmful first (the chance the answer
 * recall gives is wrong × how often it is given). Each item shows both sides with their owners,
 * times and sources, what differs, and what recall returns today; each resolution is one change
 * offered back as "Undo". The first visit builds the engine's conflict index, with its progress.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ConflictItem, ConflictKind, ConflictSide, IndexBuildState } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { useConflicts, useRecallToday, useResolve } from '../../api/conflicts.js';
import { keys } from '../../api/keys.js';
import { EmptyState, ErrorBox, fmtNum, fmtTime, ownerLabel, Spinner } from '../../components/common.js';
import { memoryHref } from '../../state/router.js';
import { MergeDialog } from '../curation/MergeDialog.js';
import { BuildProgress } from '../recall/RankingStatus.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import '../curation/curation.css';
import './conflicts.css';

const PAGE = 20;
const KIND_LABEL: Record<ConflictKind, string> = { contradicts: 'flagged contradiction', value: 'different values', belief: 'doubted belief' };
const pct = (p: number) => `${fmtNum(p * 100, 0)}%`;
const short = (id: string) => id.slice(0, 8);

/** The build of the conflict index, polled while the first page is on its way. */
function BuildStatus({ pending }: { pending: boolean }) {
  const progress = useQuery({
    queryKey: [...keys.all, 'recall', 'index-build', 'conflicts'],
    queryFn: () => call('recall.indexBuild', {}),
    enabled: pending,
    refetchInterval: pending ? 300 : false,
    staleTime: 0,
  });
  const b: IndexBuildState['building'] = pending ? (progress.data?.building ?? null) : null;
  if (!pending) return null;
  return b ? <BuildProgress building={b} testId="conflicts-build" /> : <Spinner label="Looking for conflicts…" />;
}

function Side({ s, name }: { s: ConflictSide; name: string }) {
  return (
    <div className="conflict-side" data-testid="conflict-side" data-memory-id={s.id}>
      <div className="side-head">
        <span className="side-name" aria-hidden="true">
          {name}
        </span>
        <span className={`type-dot t-${s.type}`} aria-hidden="true" /> <a href={memoryHref(s.id)}>{s.head || short(s.id)}</a>
      </div>
      <dl className="side-facts small">
        <dt>owner</dt>
        <dd>{ownerLabel(s.owner)}</dd>
        <dt>written</dt>
        <dd>{fmtTime(s.created_at)}</dd>
        <dt>source</dt>
        <dd>{s.source ?? 'not recorded'}</dd>
        <dt>used</dt>
        <dd>
          {s.recalled} recalls, {s.injected} injections
        </dd>
        {s.valid_to !== null ? (
          <>
            <dt>valid until</dt>
            <dd>{fmtTime(s.valid_to)}</dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}

/** "What recall returns today": a dry run of the default recall for the words both share, asked when the item is shown. */
function RecallToday({ item }: { item: ConflictItem }) {
  const q = useRecallToday(item.ids && item.query ? { query: item.query, ids: item.ids } : null);
  if (!item.ids || !item.query) return null;
  const label = (id: string) => (id === item.ids![0] ? 'A' : 'B');
  return (
    <p className="small recall-today" data-testid="conflict-recall">
      <strong>Recall today</strong> for “{item.query.slice(0, 80)}”:{' '}
      {q.data ? (
        <>
          {q.data.places
            .map((p) => `${label(p.id)} ${p.rank !== null ? `#${p.rank}` : p.left_out ? 'left out (superseded)' : `not in the top ${q.data!.k}`}`)
            .join(', ')}
          {q.data.first ? ` — gives ${label(q.data.first)} first.` : ' — gives neither.'}
        </>
      ) : q.error ? (
        <span className="error-text">could not rank it ({(q.error as Error).message})</span>
      ) : (
        <span className="muted">ranking…</span>
      )}
    </p>
  );
}

function PairItem({ item, readOnly, onMerge }: { item: ConflictItem; readOnly: string | null; onMerge: (ids: string[]) => void }) {
  const [a, b] = item.sides!;
  const resolve = useResolve();
  const busy = resolve.isPending;
  const title = useId();
  const act = (label: string, onClick: () => void, hint: string, testid: string, primary = false) => (
    <button className={primary ? 'primary' : ''} onClick={onClick} disabled={!!readOnly || busy} title={readOnly ?? hint} data-testid={testid}>
      {label}
    </button>
  );
  return (
    <article className="conflict panel" aria-labelledby={title} data-testid="conflict-item" data-kind={item.kind} data-key={item.key} data-ids={item.ids!.join(',')}>
      <header className="row">
        <h3 id={title} className="conflict-title">
          <span className={`badge kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span>{' '}
          {item.spans?.length ? (
            <span>
              differs in {item.spans.map((s, i) => (
                <span key={i}>
                  {i ? '; ' : ''}
                  <q>{s.a}</q> / <q>{s.b}</q> <span className="muted">({s.kind})</span>
                </span>
              ))}
            </span>
          ) : (
            <span>
              {short(a!.id)} contradicts {short(b!.id)}
            </span>
          )}
        </h3>
        <span className="spacer" />
        <span className="muted small harm" title="expected harm = the chance the answer recall gives is wrong × (recalls and injections + 1)" data-testid="conflict-harm">
          harm {fmtNum(item.harm, 2)} = {pct(item.p_wrong)} × {item.uses + 1}
        </span>
      </header>
      {item.note ? (
        <p className="small note" data-testid="conflict-note">
          Flagged{item.note.owner ? ` by ${ownerLabel(item.note.owner)}` : ''}: {item.note.note}
        </p>
      ) : null}
      <div className="conflict-sides">
        <Side s={a!} name="A" />
        <Side s={b!} name="B" />
      </div>
      <RecallToday item={item} />
      <div className="row actions" role="group" aria-label="resolve this conflict">
        {act('B holds, A superseded', () => resolve.mutate({ do: 'supersede', current: b!.id, superseded: a!.id }), 'A stays in history but leaves recall; undoable', 'resolve-b-holds', true)}
        {act('A holds, B superseded', () => resolve.mutate({ do: 'supersede', current: a!.id, superseded: b!.id }), 'B stays in history but leaves recall; undoable', 'resolve-a-holds')}
        {act('A is wrong', () => resolve.mutate({ do: 'forget', wrong: a!.id }), 'Forget A (deleted, with a tombstone); undoable', 'resolve-forget-a')}
        {act('B is wrong', () => resolve.mutate({ do: 'forget', wrong: b!.id }), 'Forget B (deleted, with a tombstone); undoable', 'resolve-forget-b')}
        {act('Both hold', () => resolve.mutate({ do: 'both_hold', ids: [a!.id, b!.id] }), 'They hold in different contexts: the pair leaves the queue for good; undoable', 'resolve-both-hold')}
        {act('Merge…', () => onMerge([a!.id, b!.id]), 'Merge them into one (you pick the survivor); undoable', 'resolve-merge')}
      </div>
      <ErrorBox error={resolve.error} />
    </article>
  );
}

function BeliefItem({ item, readOnly }: { item: ConflictItem; readOnly: string | null }) {
  const resolve = useResolve();
  const b = item.belief!;
  const title = useId();
  const disabled = !!readOnly || resolve.isPending;
  const values = [...(b.value ? [{ value: b.value, p: b.p }] : []), ...b.alternatives];
  return (
    <article className="conflict panel" aria-labelledby={title} data-testid="conflict-item" data-kind="belief" data-key={item.key} data-entity={item.entity} data-attribute={item.attribute}>
      <header className="row">
        <h3 id={title} className="conflict-title">
          <span className="badge kind-belief">{KIND_LABEL.belief}</span> {item.entity} · {item.attribute}
        </h3>
        <span className="spacer" />
        <span className="muted small harm" data-testid="conflict-harm">
          harm {fmtNum(item.harm, 2)} = {pct(item.p_wrong)} × {item.uses + 1}
        </span>
      </header>
      <p className="small" data-testid="belief-answer">
        Today the answer is <strong>{b.value ?? 'nothing'}</strong> at {pct(b.p)}
        {b.signals ? ` (${b.signals.reports} reliable ${b.signals.reports === 1 ? 'report' : 'reports'} of it; ${b.signals.recent_agreeing} of the ${b.signals.recent_total} nearest agree)` : ''}.
      </p>
      <table className="mini-table wide">
        <caption className="muted small">The latest reports</caption>
        <thead>
          <tr>
            <th scope="col">when</th>
            <th scope="col">value</th>
            <th scope="col">reliability</th>
            <th scope="col">source</th>
            <th scope="col">
              <span className="visually-hidden">reject</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {b.reports.map((r) => (
            <tr key={r.delta_id}>
              <td className="nowrap">{fmtTime(r.t)}</td>
              <td>{r.value}</td>
              <td>{r.reliability ?? '—'}</td>
              <td>{r.source || '—'}</td>
              <td>
                <button className="link" disabled={disabled} onClick={() => resolve.mutate({ do: 'reject', delta_id: r.delta_id })} title={readOnly ?? 'This report stops counting (undoable)'} data-testid="belief-reject">
                  Reject report #{r.delta_id}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row actions" role="group" aria-label="assert a value">
        {values.map((v) => (
          <button
            key={v.value}
            disabled={disabled}
            onClick={() => resolve.mutate({ do: 'assert', entity: item.entity!, attribute: item.attribute!, value: v.value })}
            title={readOnly ?? `A curator's observation: ${item.entity}'s ${item.attribute} is ${v.value}, with full reliability (undoable)`}
            data-testid="belief-assert"
          >
            It is {v.value} ({pct(v.p)})
          </button>
        ))}
      </div>
      <ErrorBox error={resolve.error} />
    </article>
  );
}

export function ConflictsView() {
  const [page, setPage] = useState(0);
  const [kind, setKind] = useState<ConflictKind | 'all'>('all');
  const [merging, setMerging] = useState<string[] | null>(null);
  const readOnly = useReadOnlyReason();
  const input = { offset: page * PAGE, limit: PAGE, ...(kind === 'all' ? {} : { kinds: [kind] }) };
  const q = useConflicts(input);
  const d = q.data;
  const pages = d ? Math.max(1, Math.ceil(d.total / PAGE)) : 1;
  return (
    <div className="conflicts-view" data-testid="conflicts-view">
      <h2>Conflicts</h2>
      <p className="muted">
        Memories that disagree and beliefs the belief layer doubts, most harmful first: the chance the answer recall gives today is wrong, times how often it is given (recalls and
        injections, plus one). Settle one and it leaves the queue; every resolution is one change you can undo.
      </p>
      <div className="row" role="radiogroup" aria-label="which conflicts">
        {(['all', 'contradicts', 'value', 'belief'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="conflict-kind" checked={kind === k} onChange={() => (setKind(k), setPage(0))} data-testid={`conflicts-kind-${k}`} />{' '}
            {k === 'all' ? 'all' : KIND_LABEL[k]}
            {d && k !== 'all' && kind === 'all' ? ` (${d.by_kind[k].toLocaleString('en-US')})` : ''}
          </label>
        ))}
        <span className="spacer" />
        {d ? (
          <span className="muted" data-testid="conflicts-summary">
            {d.total.toLocaleString('en-US')} {kind === 'all' ? '' : `${KIND_LABEL[kind]} `}in the queue · {d.scanned.toLocaleString('en-US')} memories read · {d.settled.toLocaleString('en-US')} {d.settled === 1 ? 'pair' : 'pairs'} kept as both holding
          </span>
        ) : null}
      </div>
      <ErrorBox error={q.error} />
      <BuildStatus pending={!d && q.isLoading} />
      {d && d.items.length === 0 ? <EmptyState title="No conflicts">Nothing in this store disagrees with itself{kind === 'all' ? '' : ' of this kind'}.</EmptyState> : null}
      <div className="conflict-list">
        {d?.items.map((item) =>
          item.kind === 'belief' ? <BeliefItem key={item.key} item={item} readOnly={readOnly} /> : <PairItem key={item.key} item={item} readOnly={readOnly} onMerge={setMerging} />,
        )}
      </div>
      {d && pages > 1 ? (
        <nav className="row" aria-label="pages of the queue">
          <button onClick={() => setPage((p) => Math.max(0, p - 1))} disabled={page === 0} data-testid="conflicts-prev">
            ← previous
          </button>
          <span className="muted">
            page {page + 1} of {pages.toLocaleString('en-US')}
          </span>
          <button onClick={() => setPage((p) => Math.min(pages - 1, p + 1))} disabled={page >= pages - 1} data-testid="conflicts-next">
            next →
          </button>
        </nav>
      ) : null}
      {merging ? <MergeDialog ids={merging} onClose={() => setMerging(null)} /> : null}
    </div>
  );
}
