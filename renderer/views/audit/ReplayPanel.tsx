/**
 * Replays one logged access against the store as it is now (each component and each score term
 * before → after, with the change) and, on demand, against the store as it was then.
 */
import { useQuery } from '@tanstack/react-query';
import type { ComponentSnapshot, ScoreTerms } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar } from '../../components/ComponentBar.js';
import { barSegments, termsFromComponents } from '../../components/score-terms.js';
import { ErrorBox, fmtNum, fmtTime, Spinner } from '../../components/common.js';
import { MemoryLink } from '../../components/MemoryLink.js';
import { ChannelChip } from '../memory/channels.js';
import { ReplayThen, Verdict } from './ReplayThen.js';

const FIELDS: (keyof ComponentSnapshot)[] = ['score', 'cos', 'rel', 'rec', 'imp', 'spread'];

/** The logged terms; an access logged before terms were stored falls back to its ring components. */
const asBar = (terms: ScoreTerms | null, s: ComponentSnapshot | null): ScoreTerms | null =>
  terms ?? (s && s.rel !== null ? termsFromComponents({ rel: s.rel ?? 0, rec: s.rec ?? 0, imp: s.imp ?? 0, spread: s.spread ?? 0 }) : null);
const shownRank = (rank: number | null | undefined) => (rank === null || rank === undefined ? '—' : `#${rank + 1}`);

export function ReplayPanel({ eventId }: { eventId: number }) {
  const q = useQuery({ queryKey: keys.replay(eventId), queryFn: () => call('access.replay', { event_id: eventId }) });
  if (q.isLoading) return <Spinner label="Replaying…" />;
  if (q.error) return <ErrorBox error={q.error} />;
  const r = q.data!;
  const e = r.event;
  return (
    <section className="panel" data-testid="replay" data-event-id={eventId}>
      <h3>Replay of access #{eventId}</h3>
      <p className="small">
        <ChannelChip channel={e.channel} /> {fmtTime(e.ts)} · reader {e.reader_owner || '(anonymous)'} ·{' '}
        <MemoryLink id={e.memory_id} head={e.head} type={e.memory_type} />
      </p>
      <p className="small muted">
        Re-run “{r.rerun.query}” with k {r.rerun.k}, hops {r.rerun.hops}, owner {r.rerun.owner ?? 'everyone'}, profile {r.rerun.profile} at {fmtTime(r.rerun.now)}
        {r.rerun.assumed.length ? ` (assumed: ${r.rerun.assumed.join(', ')})` : ''}.
      </p>
      <div className="replay-verdicts" data-testid="replay-verdicts">
        <Verdict r={r} against="Against the store now" testId="replay-now-verdict" />
        {e.query ? <ReplayThen eventId={eventId} loggedAt={e.ts} /> : null}
      </div>
      <div className="replay-bars">
        <div>
          <span className="muted small">then</span> <ComponentBar terms={asBar(r.terms.before, r.before)} />
        </div>
        <div>
          <span className="muted small">now</span> <ComponentBar terms={asBar(r.terms.after, r.after)} />
        </div>
      </div>
      <table className="replay-table" data-testid="replay-table">
        <thead>
          <tr>
            <th />
            <th>then</th>
            <th>now</th>
            <th>moved</th>
          </tr>
        </thead>
        <tbody>
          <tr data-field="rank">
            <th>rank</th>
            <td className="mono">{shownRank(r.before.rank)}</td>
            <td className="mono">{r.after ? `${shownRank(r.after.rank)} of ${r.ranked_now}` : 'not ranked'}</td>
            <td className={`mono ${r.delta.rank === null || r.delta.rank === 0 ? '' : r.delta.rank < 0 ? 'up' : 'down'}`}>
              {r.delta.rank === null ? '—' : r.delta.rank === 0 ? 'same' : `${Math.abs(r.delta.rank)} place${Math.abs(r.delta.rank) === 1 ? '' : 's'} ${r.delta.rank < 0 ? 'up' : 'down'}`}
            </td>
          </tr>
          {FIELDS.map((f) => {
            const d = r.delta[f];
            const better = d === null || d === 0 ? '' : d > 0 ? 'up' : 'down';
            return (
              <tr key={f} data-field={f}>
                <th>{f}</th>
                <td className="mono">{fmtNum(r.before[f] as number | null, 4)}</td>
                <td className="mono">{r.after ? fmtNum(r.after[f] as number | null, 4) : 'not ranked'}</td>
                <td className={`mono ${better}`}>{d === null ? '—' : `${d > 0 ? '+' : ''}${fmtNum(d, 4)}`}</td>
              </tr>
            );
          })}
          {barSegments(r.terms.after ?? r.terms.before ?? { rel: 0, rec: 0, imp: 0, spread: 0 }).map(({ key, label }) => {
            const d = r.terms.delta?.[key] ?? null;
            return (
              <tr key={`term-${key}`} data-term={key}>
                <th title={`${label}, weighted: its share of the score`}>+{key}</th>
                <td className="mono">{fmtNum(r.terms.before?.[key] ?? null, 4)}</td>
                <td className="mono">{r.terms.after ? fmtNum(r.terms.after[key] ?? null, 4) : 'not ranked'}</td>
                <td className={`mono ${d === null || d === 0 ? '' : d > 0 ? 'up' : 'down'}`}>{d === null ? '—' : `${d > 0 ? '+' : ''}${fmtNum(d, 4)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small" data-testid="replay-movement">
        {r.movement}.
      </p>
      {r.notes.length ? (
        <ul className="small">
          {r.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
      {r.logged_results.length ? (
        <>
          <h4>Returned together</h4>
          <ol className="small returned-together">
            {r.logged_results.map((x) => (
              <li key={x.memory_id} data-testid="replay-sibling" data-memory-id={x.memory_id}>
                <div>
                  <MemoryLink id={x.memory_id} head={x.head} type={x.memory_type} />
                  {x.memory_id === e.memory_id ? <span className="badge">this access</span> : null}
                  <span className="muted nowrap">
                    {shownRank(x.rank)} · score {fmtNum(x.score, 4)}
                  </span>
                </div>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
