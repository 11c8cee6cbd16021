/** Access audit: every logged access, filtered by channel, reader, credential, cross-owner reads and query text; click one to replay it. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar } from '../../components/ComponentBar.js';
import { termsFromComponents } from '../../components/score-terms.js';
import { EmptyState, fmtNum, fmtTime, ownerLabel, QueryView } from '../../components/common.js';
import { buildHash, listParam, memoryHref, navigate, useRoute } from '../../state/router.js';
import { ChannelChip } from '../memory/channels.js';
import { CredentialName } from '../../components/credential.js';
import { CredentialFilter } from '../../components/CredentialFilter.js';
import { useCredentials } from '../../api/credentials.js';
import { credentialParam } from '../../state/credential-param.js';
import { ReplayPanel } from './ReplayPanel.js';
import { plural } from '../../api/errors.js';
import { intParam } from '../../state/url-params.js';

const CHANNELS = ['created', 'recalled', 'searched', 'injected', 'reinforced', 'deref', 'reflected'] as const;
const PAGE = 200;

export function AuditView() {
  const route = useRoute();
  const p = route.params;
  const channels = listParam(p, 'channel');
  const reader = p.get('reader');
  const cross = p.get('cross') === '1';
  const qtext = p.get('q') ?? '';
  // The URL's page is 0-based (page=0 is the first); a bad value is reported below, not silently replaced.
  const pageParam = intParam(p, 'page', { min: 0, fallback: 0, what: 'page' });
  const page = pageParam.value;
  const eventId = p.has('event') ? Number(p.get('event')) : null;
  const credentials = useCredentials();
  const credential = credentialParam(p.get('credential'), credentials.data?.credentials, 'accesses');
  const [text, setText] = useState(qtext);
  const [readerText, setReaderText] = useState(reader ?? '');
  useEffect(() => setText(qtext), [qtext]);

  const setParams = (patch: Record<string, string | number | string[] | null>) =>
    navigate(buildHash('audit', null, { channel: channels, reader, credential: credential.ready ? credential.value : p.get('credential'), cross: cross ? '1' : null, q: qtext, page: null, event: eventId, ...patch }), { replace: true });

  const input = {
    ...(channels.length ? { channels: channels as (typeof CHANNELS)[number][] } : {}),
    ...(reader !== null ? { reader_owner: reader } : {}),
    ...(credential.value !== null ? { credential: credential.value } : {}),
    ...(cross ? { cross_owner_only: true } : {}),
    ...(qtext ? { query: qtext } : {}),
    order: 'desc' as const,
    offset: page * PAGE,
    limit: PAGE,
  };
  // A link's credential is checked against the store's credentials first, so a stale one is reported, not sent.
  const q = useQuery({ queryKey: keys.access(input), queryFn: () => call('access.list', input), enabled: credential.ready });

  return (
    <div className="audit-view">
      <div className="audit-main">
        <form
          className="audit-filters"
          onSubmit={(e) => {
            e.preventDefault();
            setParams({ q: text, reader: readerText === '' ? null : readerText });
          }}
        >
          <input data-search data-testid="audit-query" placeholder="Query text contains…  ( / )" value={text} onChange={(e) => setText(e.target.value)} />
          <input placeholder="reader_owner (exact)" value={readerText} onChange={(e) => setReaderText(e.target.value)} data-testid="audit-reader" />
          <CredentialFilter value={credential.value} credentials={credentials.data?.credentials ?? []} onChange={(v) => setParams({ credential: v })} testId="audit-credential" />
          <label className="facet">
            <input type="checkbox" checked={cross} onChange={() => setParams({ cross: cross ? null : '1' })} data-testid="audit-cross" /> cross-owner reads only
          </label>
          <button type="submit">Filter</button>
          <div className="chips">
            {CHANNELS.map((c) => (
              <button
                type="button"
                key={c}
                className={`tag${channels.includes(c) ? ' on' : ''}`}
                onClick={() => setParams({ channel: channels.includes(c) ? channels.filter((x) => x !== c) : [...channels, c] })}
                data-testid={`audit-channel-${c}`}
              >
                {c}
              </button>
            ))}
          </div>
        </form>
        {[pageParam.error, credential.error].map((error) =>
          error ? (
            <div key={error} className="error" role="alert" data-testid="url-param-error">
              {error}
            </div>
          ) : null,
        )}
        <QueryView query={q} label="Loading accesses…">
          {({ events: rows, total, source }) => (
            <>
              <div className="muted small" data-testid="audit-total" data-total={total}>
                {`${plural(total, 'access', 'accesses')}${source === 'rings' ? ' (read from the rings: this store has no event table yet)' : ''}`}
              </div>
              {total === 0 ? (
                <EmptyState title="No access matches">Clear the filters, or run a recall in the Recall console in “Recall” mode: each returned memory is logged here.</EmptyState>
              ) : null}
              <div className="audit-table-wrap">
                <table className="access-table audit">
                  <thead>
                    <tr>
                      <th>when</th>
                      <th>channel</th>
                      <th>reader</th>
                      <th title="the agent credential the access was made with; local: the workbench, the CLI or a stdio agent">credential</th>
                      <th>memory</th>
                      <th>rank</th>
                      <th>score</th>
                      <th className="wide">rel · rec · imp · spread</th>
                      <th>query</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((e, i) => (
                      <tr
                        key={e.event_id ?? `r${i}`}
                        data-testid="access-row"
                        data-origin="audit"
                        data-event-id={e.event_id ?? ''}
                        data-memory-id={e.memory_id}
                        className={`${e.event_id === eventId ? 'selected' : ''}${e.cross_owner ? ' cross' : ''}`}
                        onClick={() => e.event_id && setParams({ event: e.event_id })}
                        tabIndex={e.event_id ? 0 : undefined}
                        onKeyDown={(ev) => {
                          if (ev.key === 'Enter' && ev.target === ev.currentTarget && e.event_id) setParams({ event: e.event_id });
                        }}
                      >
                        <td className="nowrap">{fmtTime(e.ts)}</td>
                        <td>
                          <ChannelChip channel={e.channel} />
                        </td>
                        <td className="small">
                          {e.reader_owner || <span className="muted">(anonymous)</span>}
                          {e.cross_owner ? <span className="badge warn" title="reader and owner are different roles">cross</span> : null}
                        </td>
                        <td className="small nowrap">
                          <CredentialName credential={e.credential} />
                        </td>
                        <td className="head">
                          <span className={`type-dot t-${e.memory_type}`} /> <a href={memoryHref(e.memory_id)} onClick={(ev) => ev.stopPropagation()}>{e.head ?? e.memory_id.slice(0, 8)}</a>
                          <span className="muted small"> {ownerLabel(e.memory_owner)}</span>
                        </td>
                        <td>{e.rank === null ? '—' : `#${e.rank + 1}`}</td>
                        <td>{fmtNum(e.score, 4)}</td>
                        <td>{e.terms || e.components ? <ComponentBar terms={e.terms ?? termsFromComponents(e.components!)} compact /> : <span className="muted">—</span>}</td>
                        <td className="query">{e.query ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {total > PAGE ? (
                <div className="pager">
                  <button disabled={page === 0} onClick={() => setParams({ page: page - 1 })}>
                    Newer
                  </button>
                  <span className="muted">
                    {page * PAGE + 1}–{Math.min(total, (page + 1) * PAGE)} of {total.toLocaleString()}
                  </span>
                  <button disabled={(page + 1) * PAGE >= total} onClick={() => setParams({ page: page + 1 })}>
                    Older
                  </button>
                </div>
              ) : null}
            </>
          )}
        </QueryView>
      </div>
      <aside className="audit-side">{eventId ? <ReplayPanel eventId={eventId} /> : <p className="muted panel">Click an access with a query to replay it against the store as it is now and see how each component moved, or as it was then to see whether the logged ranking comes back.</p>}</aside>
    </div>
  );
}
