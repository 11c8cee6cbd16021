/**
 * The access ring (the last 64 accesses stored on the record) and, below it, the full history from
 * the uncapped event table: one row per access with the rel / rec / imp / spread bar, rank, score,
 * query, reader, channel and trace. Under the time control (?at=), both as of the instant: the ring
 * from the record then, the history up to the instant.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ScoreTerms } from '../../../core/api/contract/index.js';
import type { Memory, AccessRecord } from '../../../core/model/memory.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar, ComponentLegend } from '../../components/ComponentBar.js';
import { ErrorBox, fmtNum, fmtTime, Spinner } from '../../components/common.js';
import { termsFromComponents } from '../../components/score-terms.js';
import { buildHash } from '../../state/router.js';
import { ACCESS_CHANNELS_BUT_CREATION, ChannelChip } from './channels.js';
import { ringText, TOUCHING_HINT } from './access-words.js';
import { plural } from '../../api/errors.js';
import { useViewInstant } from '../../api/time-travel.js';
import { AccessFieldsLater } from './AccessFieldsLater.js';

type Row = Pick<AccessRecord, 'ts' | 'reader_owner' | 'trace_ref' | 'query' | 'score' | 'rank' | 'components' | 'session_ref'> & { channel: string; event_id?: number | null; terms?: ScoreTerms | null };

export function AccessTable({ rows, origin, startIndex = 0 }: { rows: Row[]; origin: 'ring' | 'events'; startIndex?: number }) {
  return (
    <table className="access-table">
      <thead>
        <tr>
          <th>#</th>
          <th>when</th>
          <th>channel</th>
          <th>rank</th>
          <th>score</th>
          <th className="wide">score terms</th>
          <th>query</th>
          <th>reader</th>
          <th>trace</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={`${r.ts}-${i}`} data-testid="access-row" data-origin={origin} data-ts={r.ts} data-channel={r.channel}>
            <td className="muted">{startIndex + i + 1}</td>
            <td className="nowrap">{fmtTime(r.ts)}</td>
            <td>
              <ChannelChip channel={r.channel} />
            </td>
            <td>{r.rank === null || r.rank === undefined ? '—' : `#${r.rank + 1}`}</td>
            <td>{fmtNum(r.score, 4)}</td>
            <td>{r.terms || r.components ? <ComponentBar terms={r.terms ?? termsFromComponents(r.components!)} compact /> : <span className="muted">—</span>}</td>
            <td className="query">
              {r.query ? (
                <a href={`#${buildHash('recall', null, { q: r.query })}`} title="Run this query in the Recall console">
                  {r.query}
                </a>
              ) : (
                '—'
              )}
            </td>
            <td>{r.reader_owner || <span className="muted">(anonymous)</span>}</td>
            <td className="mono small">
              {r.event_id ? <a href={`#${buildHash('audit', null, { event: r.event_id })}`}>{r.trace_ref ?? `event ${r.event_id}`}</a> : (r.trace_ref ?? '—')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const PAGE = 100;
/** The ring's length on a record (nooa's _ACCESS_LOG_CAP). */
const RING_SLOTS = 64;

function FullHistory({ id }: { id: string }) {
  const [page, setPage] = useState(0);
  // The creation is not an access: left out, the total is the curve's "accesses logged".
  const { at } = useViewInstant();
  const input = { memory_id: id, channels: [...ACCESS_CHANNELS_BUT_CREATION], order: 'desc' as const, offset: page * PAGE, limit: PAGE };
  const q = useQuery({
    queryKey: at === null ? keys.access(input) : keys.pastAccess(input, at),
    queryFn: () => call('access.list', at === null ? input : { ...input, at }),
  });
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Spinner label="Reading the full history…" />;
  const { total, events, source } = q.data;
  return (
    <div data-testid="access-history" data-total={total}>
      <h4>
        Full history{' '}
        <span className="muted">
          ({plural(total, 'access', 'accesses')} logged{at === null ? '' : ` up to ${fmtTime(at)}`}{source === 'rings' ? ', from the ring only: this store has no event table yet' : ' in the event table'}, the creation not counted)
        </span>
      </h4>
      <AccessTable rows={events} origin="events" startIndex={page * PAGE} />
      {total > PAGE ? (
        <div className="pager">
          <button disabled={page === 0} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span className="muted">
            {page * PAGE + 1}–{Math.min(total, (page + 1) * PAGE)} of {total}
          </span>
          <button disabled={(page + 1) * PAGE >= total} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function AccessHistory({ memory }: { memory: Memory }) {
  const ring = [...memory.access_log].reverse();
  const [showAll, setShowAll] = useState(memory.access_log.length >= RING_SLOTS);
  const { at } = useViewInstant();
  return (
    <section className="panel" data-testid="access-ring">
      <h3>
        Access ring <span className="muted" data-testid="ring-count">({ringText(memory.access_log, RING_SLOTS)})</span>
        {at === null ? null : <span className="muted"> as of {fmtTime(at)}</span>}
      </h3>
      <AccessFieldsLater />
      <p className="muted small">{TOUCHING_HINT}</p>
      <ComponentLegend />
      {ring.length === 0 ? <p className="muted">No access yet. Recalls, searches and injections that return this memory appear here.</p> : <AccessTable rows={ring} origin="ring" />}
      {showAll ? (
        <FullHistory id={memory.id} />
      ) : (
        <button className="link" onClick={() => setShowAll(true)} data-testid="show-history">
          Show the full history from the event table
        </button>
      )}
    </section>
  );
}
