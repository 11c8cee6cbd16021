/** Memory detail: every field, the four scores in words, edges in and out, the retention curve and the access history. */
import { useEffect, useState } from 'react';
import type { EdgeView, MemoryDetail } from '../../../core/api/contract/index.js';
import { useArchive, useMemory } from '../../api/hooks.js';
import { useViewInstant } from '../../api/time-travel.js';
import { useUnlink } from '../../api/curation.js';
import { EditPanel } from '../curation/EditPanel.js';
import { ForgetButton } from '../curation/ForgetButton.js';
import { EraseButton } from '../privacy/EraseButton.js';
import { LinkForm } from '../curation/LinkForm.js';
import { MergeDialog } from '../curation/MergeDialog.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import { useUi } from '../../state/ui.js';
import '../curation/curation.css';
import { EmptyState, ErrorBox, fmtNum, fmtTime, ownerLabel, Spinner } from '../../components/common.js';
import { platform } from '../../platform/browser.js';
import { buildHash, graphHref, memoryHref, navigate } from '../../state/router.js';
import { WhyNotLink } from '../recall/WhyNotLink.js';
import { memoryTitle } from '../../components/memory-title.js';
import { AccessHistory } from './AccessHistory.js';
import { RetentionPanel } from './RetentionPanel.js';
import { injectionsFieldText, touchingFieldText } from './access-words.js';

function ScoreCard({ name, value, label, max, hint }: { name: string; value: number; label: string; max: number; hint: string }) {
  return (
    <div className="score-card" title={hint} data-testid={`score-${name}`}>
      <div className="score-name">{name}</div>
      <div className="score-value">
        {fmtNum(value, 3)} <span className="score-label">{label}</span>
      </div>
      <div className="meter">
        <span style={{ width: `${Math.max(0, Math.min(1, value / max)) * 100}%` }} />
      </div>
    </div>
  );
}

function EdgeList({ title, edges, dir, self }: { title: string; edges: EdgeView[]; dir: 'out' | 'in'; self: string }) {
  const unlink = useUnlink();
  const readOnly = useReadOnlyReason();
  return (
    <section className="panel">
      <h3>
        {title} <span className="muted">({edges.length})</span>
      </h3>
      {edges.length === 0 ? (
        <p className="muted">{dir === 'out' ? 'No outgoing edges. Link memories with "mnemo link".' : 'No memory points here.'}</p>
      ) : (
        <ul className="edge-list">
          {edges.map((e) => (
            <li key={`${e.id}-${e.type}`} data-testid={`edge-${dir}`} data-memory-id={e.id}>
              <span className={`edge-type e-${e.type}`}>{dir === 'out' ? `→ ${e.type}` : `← ${e.type}`}</span>
              <span className="muted">{fmtNum(e.weight, 3)}</span>
              {e.exists ? (
                <a href={memoryHref(e.id)} className={e.archived ? 'archived' : ''}>
                  <span className={`type-dot t-${e.memory_type}`} /> {e.head}
                </a>
              ) : (
                <span className="muted">missing memory {e.id.slice(0, 8)}</span>
              )}
              {e.owner !== null ? <span className="muted small">{ownerLabel(e.owner)}</span> : null}
              <button
                className="link unlink"
                title={readOnly ?? `Remove this ${e.type} edge (undoable)`}
                aria-label={`Remove the ${e.type} edge ${dir === 'out' ? 'to' : 'from'} ${e.head || e.id.slice(0, 8)}`}
                disabled={unlink.isPending || !!readOnly}
                onClick={() => unlink.mutate(dir === 'out' ? { src: self, dst: e.id, type: e.type as never } : { src: e.id, dst: self, type: e.type as never })}
                data-testid="unlink"
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorBox error={unlink.error} />
    </section>
  );
}

function Fields({ d }: { d: MemoryDetail }) {
  const m = d.memory;
  const rows: [string, string][] = [
    ['id', m.id],
    ['type', m.type + (m.status ? ` (${m.status})` : '')],
    ['owner', ownerLabel(m.owner)],
    ['created', fmtTime(m.created_at)],
    ['last accessed', fmtTime(m.last_accessed_at)],
    ['strength', String(m.strength)],
    ['reinforcements', String(m.reinforcement_count)],
    ['touching accesses', touchingFieldText(m)],
    ['injections', injectionsFieldText(m.injected_count)],
    ['size', `${m.size_chars} chars · ${m.token_len} tokens · ${m.sentence_count} sentences`],
    ['mood', m.mood ?? '—'],
    ['place or task', m.place_or_task ?? '—'],
    ['valid', m.valid_from || m.valid_to ? `${fmtTime(m.valid_from)} → ${fmtTime(m.valid_to)}` : '—'],
    ['superseded', d.superseded ? `by ${d.superseded.by_head ?? d.superseded.by.slice(0, 8)} (${d.superseded.by.slice(0, 8)}) at ${fmtTime(d.superseded.at)}: recall leaves it out` : 'no'],
    ['trigger', m.trigger ? JSON.stringify(m.trigger) : '—'],
    ['source task', m.source_task_ref ?? '—'],
    ['chat turn', m.chat_turn_ref ?? '—'],
    ['related files', m.related_files.length ? m.related_files.join(', ') : '—'],
    ['embedding', d.has_embedding ? 'stored' : 'missing'],
    ['archived', m.archived ? 'yes' : 'no'],
  ];
  return (
    <table className="fields">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k} data-field={k}>
            <th>{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MemoryDetailView({ id }: { id: string | null }) {
  const { at, ready } = useViewInstant();
  const q = useMemory(id, at, ready);
  const archive = useArchive();
  const readOnly = useReadOnlyReason();
  const selected = useUi((s) => s.selected);
  const [merging, setMerging] = useState(false);
  const [linking, setLinking] = useState(false);
  useEffect(() => {
    if (q.data) platform.mark('mnemo:detail-rendered');
  }, [q.data]);
  if (!id) return <EmptyState title="No memory chosen">Pick a memory in the Memories list or the graph.</EmptyState>;
  if (!ready) return null;
  if (q.isLoading) return <Spinner label="Opening memory…" />;
  if (q.error) return <ErrorBox error={q.error} />;
  const d = q.data!;
  const m = d.memory;
  return (
    <div className="detail" data-testid="memory-detail" data-memory-id={m.id}>
      <div className="detail-head">
        <div>
          <div className="crumbs">
            <a href={`#${buildHash('memories', null, { at })}`}>Memories</a> / <span title={m.id}>{memoryTitle(m, 60)}</span>
          </div>
          <h2 data-testid="memory-title">
            <span className={`type-dot big t-${m.type}`} /> {memoryTitle(m)}
            {m.archived ? <span className="badge">archived</span> : null}
          </h2>
          <div className="muted">
            {m.type} · {ownerLabel(m.owner)} · created {fmtTime(m.created_at)}
          </div>
        </div>
        <div className="actions">
          <a className="button" href={at === null ? graphHref(m.id) : `#${buildHash('graph', null, { focus: m.id, at })}`}>
            Show in graph
          </a>
          <a className="button" href={`#${buildHash('recall', null, { q: m.title ?? m.content.slice(0, 80), why: m.id, ...(at === null ? {} : { at }) })}`}>
            Recall with it
          </a>
          <WhyNotLink id={m.id} className="button" />
          <button onClick={() => archive.mutate({ ids: [m.id], archived: !m.archived })} disabled={archive.isPending || !!readOnly} title={readOnly ?? undefined} data-testid="archive-toggle">
            {m.archived ? 'Restore' : 'Archive'}
          </button>
          <button onClick={() => setLinking((v) => !v)} disabled={!!readOnly} title={readOnly ?? undefined} data-testid="link-open">
            Link…
          </button>
          <button
            onClick={() => setMerging(true)}
            disabled={[...selected].filter((x) => x !== m.id).length === 0 || !!readOnly}
            title={readOnly ?? (selected.size ? 'Merge this memory with the memories ticked in the list' : 'Tick memories in the Memories list first, then merge them here')}
            data-testid="merge-open"
          >
            Merge with selection{selected.size ? ` (${[...selected].filter((x) => x !== m.id).length})` : ''}
          </button>
          <ForgetButton ids={[m.id]} onDone={() => navigate(buildHash('memories'))} />
          <EraseButton ids={[m.id]} onDone={() => navigate(buildHash('memories'))} />
        </div>
      </div>
      <ErrorBox error={archive.error} />
      {linking ? <LinkForm src={m.id} onDone={() => setLinking(false)} /> : null}
      {merging ? <MergeDialog ids={[m.id, ...[...selected].filter((x) => x !== m.id)]} onClose={() => setMerging(false)} /> : null}
      <div className="scores">
        <ScoreCard name="importance" value={m.importance} label={d.labels.importance} max={10} hint="0–10; ≥ 8 is never pruned" />
        <ScoreCard name="salience" value={m.salience} label={d.labels.salience} max={1} hint="how striking it was when written (0–1)" />
        <ScoreCard name="confidence" value={m.confidence} label={d.labels.confidence} max={1} hint="how sure the writer was (0–1)" />
        <RetentionPanel.Score id={m.id} />
      </div>
      <section className="panel content-panel">
        <h3>Content</h3>
        <div className="content-text" data-testid="memory-content">
          {m.content}
        </div>
        <div className="chips">
          {m.tags.map((t) => (
            <a key={t} className="tag" href={`#${buildHash('memories', null, { tag: [t] })}`} data-testid="memory-tag">
              {t}
            </a>
          ))}
          {m.entities.map((e) => (
            <span key={e} className="tag entity">
              {e}
            </span>
          ))}
        </div>
        {m.references.length ? (
          <ul className="refs">
            {m.references.map((r, i) => (
              <li key={i}>
                <span className="muted">{r.kind}</span>{' '}
                {r.kind === 'memory' ? (
                  // A memory reference is named by the snapshot of its text, the id kept for the tooltip.
                  <a href={memoryHref(r.key)} title={r.key}>
                    {r.preview ? memoryTitle({ title: null, content: r.preview }, 120) : r.key.slice(0, 8)}
                  </a>
                ) : (
                  <>
                    <span className="mono">{r.key}</span>
                    {r.preview ? <span className="muted"> — {r.preview}</span> : null}
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <RetentionPanel id={m.id} memory={m} />
      <AccessHistory memory={m} />
      <div className="two-col">
        <EdgeList title="Edges out" edges={d.outgoing} dir="out" self={m.id} />
        <EdgeList title="Edges in" edges={d.incoming} dir="in" self={m.id} />
      </div>
      <EditPanel m={m} />
      <section className="panel">
        <h3>Every field</h3>
        <Fields d={d} />
      </section>
    </div>
  );
}
