/** Replays one logged access against the store as it is now: each component before → after, with the change. */
import { useQuery } from '@tanstack/react-query';
import type { ComponentSnapshot } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar } from '../../components/ComponentBar.js';
import { ErrorBox, fmtNum, fmtTime, Spinner } from '../../components/common.js';
import { memoryHref } from '../../state/router.js';
import { ChannelChip } from '../memory/channels.js';

const FIELDS: (keyof ComponentSnapshot)[] = ['rank', 'score', 'cos', 'rel', 'rec', 'imp', 'spread'];

const asBar = (s: ComponentSnapshot | null) => (s && s.rel !== null ? { rel: s.rel ?? 0, rec: s.rec ?? 0, imp: s.imp ?? 0, spread: s.spread ?? 0 } : null);

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
        <a href={memoryHref(e.memory_id)}>{e.head ?? e.memory_id.slice(0, 8)}</a>
      </p>
      <p className="small muted">
        Re-run “{r.rerun.query}” with k {r.rerun.k}, hops {r.rerun.hops}, owner {r.rerun.owner ?? 'everyone'}, profile {r.rerun.profile} at {fmtTime(r.rerun.now)}
        {r.rerun.assumed.length ? ` (assumed: ${r.rerun.assumed.join(', ')})` : ''}.
      </p>
      <div className="replay-bars">
        <div>
          <span className="muted small">then</span> <ComponentBar c={asBar(r.before)} />
        </div>
        <div>
          <span className="muted small">now</span> <ComponentBar c={asBar(r.after)} />
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
          {FIELDS.map((f) => {
            const d = r.delta[f];
            // A smaller rank is better: colour it as a gain.
            const better = d === null || d === 0 ? '' : (f === 'rank' ? d < 0 : d > 0) ? 'up' : 'down';
            return (
              <tr key={f} data-field={f}>
                <th>{f}</th>
                <td className="mono">{fmtNum(r.before[f] as number | null, 4)}</td>
                <td className="mono">{r.after ? fmtNum(r.after[f] as number | null, 4) : 'not ranked'}</td>
                <td className={`mono ${better}`}>{d === null ? '—' : `${d > 0 ? '+' : ''}${fmtNum(d, 4)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small">{r.in_top_k_now ? 'Still in the top k today.' : 'No longer in the top k today.'}</p>
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
          <ol className="small">
            {r.logged_results.map((x) => (
              <li key={x.memory_id}>
                <a href={memoryHref(x.memory_id)} className="mono">
                  {x.memory_id.slice(0, 10)}
                </a>{' '}
                rank {x.rank ?? '—'} · score {fmtNum(x.score, 4)}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  );
}
