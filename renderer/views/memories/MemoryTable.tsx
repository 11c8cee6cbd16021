/**
 * The virtualized memory table: only the rows on screen exist in the DOM, and only the 200-row
 * pages under them are fetched, so it scrolls smoothly through 100k memories.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { MemorySummary } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { PAGE_SIZE, useMemoryPages, type ListFilter } from '../../api/hooks.js';
import { EmptyState, ErrorBox, fmtNum, fmtTime, ownerLabel, Spinner } from '../../components/common.js';
import { platform } from '../../platform/browser.js';
import { buildHash, memoryHref, navigate } from '../../state/router.js';
import { WhyNotLink } from '../recall/WhyNotLink.js';
import { useUi } from '../../state/ui.js';
import { toListInput, type MemoryFilters, type SortField } from './filters.js';
import { plural } from '../../api/errors.js';
import { rowsOnScreen } from './rows-on-screen.js';

const ROW_H = 34;

const COLUMNS: { key: string; label: string; sort?: SortField; className: string }[] = [
  { key: 'type', label: 'Type', sort: 'type', className: 'c-type' },
  { key: 'head', label: 'Memory', className: 'c-head' },
  { key: 'owner', label: 'Owner', sort: 'owner', className: 'c-owner' },
  { key: 'importance', label: 'Imp', sort: 'importance', className: 'c-num' },
  { key: 'strength', label: 'Str', sort: 'strength', className: 'c-num' },
  { key: 'access_count', label: 'Acc', sort: 'access_count', className: 'c-num' },
  { key: 'created_at', label: 'Created', sort: 'created_at', className: 'c-time' },
  { key: 'last_accessed', label: 'Last access', sort: 'last_accessed', className: 'c-time' },
];

function Row({ m, index, start, at }: { m: MemorySummary | null; index: number; start: number; at: number | null }) {
  const selected = useUi((s) => (m ? s.selected.has(m.id) : false));
  const toggle = useUi((s) => s.toggleSelected);
  const style = { transform: `translateY(${start}px)`, height: ROW_H };
  if (!m) {
    return (
      <div className="trow loading" style={style} aria-rowindex={index + 2}>
        <span className="muted">…</span>
      </div>
    );
  }
  return (
    <div
      className={`trow${selected ? ' selected' : ''}${m.archived ? ' archived' : ''}`}
      style={style}
      data-testid="memory-row"
      data-memory-id={m.id}
      aria-rowindex={index + 2}
      role="row"
      tabIndex={0}
      // Enter on the focused row opens it (only when the row itself has focus, not its checkbox or link).
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) {
          e.preventDefault();
          navigate(buildHash('memory', m.id, { at }));
        }
      }}
    >
      <span className="c-check" role="cell">
        <input type="checkbox" checked={selected} onChange={() => toggle(m.id)} aria-label={`select ${m.title ?? m.head.slice(0, 60)}`} />
      </span>
      <span className="c-type" role="cell">
        <span className={`type-dot t-${m.type}`} /> {m.type}
        {m.status ? <span className={`status s-${m.status}`}>{m.status}</span> : null}
      </span>
      <span className="c-head-cell" role="cell">
      <a className="c-head" href={at === null ? memoryHref(m.id) : `#${buildHash('memory', m.id, { at })}`} title={m.head}>
        {m.title ? <strong>{m.title}</strong> : null} {m.title ? null : m.head}
        {m.tags.length ? (
          <span className="row-tags">
            {m.tags.slice(0, 4).map((t) => (
              <span key={t} className="tag small">
                {t}
              </span>
            ))}
          </span>
        ) : null}
      </a>
      </span>
      <span className="c-owner" role="cell">
        {ownerLabel(m.owner)} <WhyNotLink id={m.id} className="small why-link" />
      </span>
      <span className="c-num" role="cell">{fmtNum(m.importance, 2)}</span>
      <span className="c-num" role="cell">{fmtNum(m.strength, 2)}</span>
      <span className="c-num" role="cell">{m.access_count}</span>
      <span className="c-time" role="cell">{fmtTime(m.created_at)}</span>
      <span className="c-time" role="cell">{fmtTime(m.last_accessed_at)}</span>
    </div>
  );
}

/** "Select all N matching": the engine resolves the filters to ids, after a confirmation naming N. */
function SelectAllMatching({ filter, total }: { filter: ListFilter; total: number }) {
  const setSelected = useUi((s) => s.setSelected);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const { sort: _sort, dir: _dir, ...matching } = filter;
  if (!confirming) {
    return (
      <button className="link" onClick={() => setConfirming(true)} data-testid="select-all-matching">
        Select all {total.toLocaleString()} matching
      </button>
    );
  }
  return (
    <span className="confirm" role="alertdialog" aria-label="confirm select all">
      Select all {total.toLocaleString()} {total === 1 ? 'memory' : 'memories'} matching these filters, including the ones not on screen?{' '}
      <button
        onClick={() =>
          call('memory.ids', matching).then(
            (r) => (setSelected(r.ids), setConfirming(false)),
            (e: unknown) => setError(e),
          )
        }
        data-testid="select-all-confirm"
      >
        Select {total.toLocaleString()}
      </button>
      <button onClick={() => setConfirming(false)}>Cancel</button>
      <ErrorBox error={error} />
    </span>
  );
}

export function MemoryTable({ filters, onSort, onReady, ready = true }: { filters: MemoryFilters; onSort: (s: SortField) => void; onReady?: () => void; ready?: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const input = toListInput(filters);
  // The visible row range, kept at page granularity so scrolling within a page does not re-render.
  const [range, setRange] = useState({ start: 0, end: 40 });
  const pages = useMemoryPages(input, range.start, range.end, filters.at, ready);
  const total = pages.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 15,
    onChange: (v) => {
      const its = v.getVirtualItems();
      const start = its[0]?.index ?? 0;
      const end = its[its.length - 1]?.index ?? 0;
      setRange((r) => (Math.floor(r.start / PAGE_SIZE) === Math.floor(start / PAGE_SIZE) && Math.floor(r.end / PAGE_SIZE) === Math.floor(end / PAGE_SIZE) ? r : { start, end }));
    },
  });
  const items = virtualizer.getVirtualItems();
  const setSelected = useUi((s) => s.setSelected);

  useEffect(() => {
    if (pages.total === null) return;
    platform.mark('mnemo:list-rendered');
    onReady?.();
  }, [pages.total, onReady]);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [filters.q, filters.sort, filters.dir, filters.archived, filters.types.join(), filters.owners.join(), filters.tags.join(), filters.statuses.join(), filters.edges.join(), JSON.stringify([filters.retention, filters.importance, filters.idle])]);

  // Read at click time: the viewport, not the rendered rows (which include the overscan).
  const visibleIds = () => {
    const el = scrollRef.current;
    const onScreen = el ? rowsOnScreen(items, el.scrollTop, el.clientHeight) : [];
    return onScreen.map((i) => pages.rowAt(i.index)?.id).filter((x): x is string => !!x);
  };
  return (
    <div className="mtable" role="table" aria-rowcount={total + 1} data-total={pages.total ?? ''} data-testid="memory-table">
      <div className="thead" role="row">
        <span className="c-check" role="columnheader">
          <input type="checkbox" title="Select the rows on screen" aria-label="select rows on screen" data-testid="select-on-screen" onChange={(e) => setSelected(e.target.checked ? visibleIds() : [])} />
        </span>
        {COLUMNS.map((c) => (
          <span key={c.key} className={`${c.className}${c.sort ? ' sortable' : ''}`} role="columnheader" aria-sort={c.sort === filters.sort ? (filters.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
            {/* A button, so the header is reachable with Tab and sorts with Enter or Space. */}
            {c.sort ? (
              <button type="button" className="th-sort" onClick={() => onSort(c.sort!)} data-testid={`sort-${c.sort}`}>
                {c.label}
                {c.sort === filters.sort ? (filters.dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </button>
            ) : (
              c.label
            )}
          </span>
        ))}
      </div>
      {/* A row of its own: inside role="table" a button may only sit in a cell (axe: aria-required-children). */}
      <div className="tcount muted" role="row">
        <span role="cell">
          {pages.total === null ? '' : plural(total, 'memory', 'memories')}
          {/* Selecting is for changing, which a past instant does not allow. A separator, so the count and the button never run together ("1,962 memoriesSelect all"). */}
          {total > 0 && filters.at === null ? (
            <>
              {' · '}
              <SelectAllMatching filter={input} total={total} />
            </>
          ) : null}
        </span>
      </div>
      <ErrorBox error={pages.error} />
      {pages.isLoading && ready ? <Spinner label="Loading memories…" /> : null}
      {!pages.isLoading && total === 0 ? (
        <EmptyState title="No memory matches">
          {filters.q || filters.types.length || filters.owners.length || filters.tags.length || filters.statuses.length
            ? 'Loosen the filters on the left or clear the search.'
            : 'This store is empty. Add memories with "mnemo add <db> …", import JSONL with "mnemo import", or open a demo store (File → New Demo Store, or "mnemo demo <db>").'}
        </EmptyState>
      ) : null}
      <div className="tbody" ref={scrollRef}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((it) => (
            <Row key={it.key} index={it.index} start={it.start} m={pages.rowAt(it.index)} at={filters.at} />
          ))}
        </div>
      </div>
    </div>
  );
}
