/**
 * Merge N memories: choose the survivor, edit the merged fields, see each source's text against
 * the survivor's. The engine folds the sources in (reinforcements and strength add up, scores take
 * the max), keeps `refines` lineage edges survivor → source, and archives the sources; one change.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { MemoryDetail } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { useMerge } from '../../api/curation.js';
import { keys } from '../../api/keys.js';
import { ErrorBox, fmtNum, Spinner } from '../../components/common.js';
import { TextDiff } from '../../components/TextDiff.js';
import { memoryTitle } from '../../components/memory-title.js';
import { memoryHref } from '../../state/router.js';
import { fieldErrors } from './field-errors.js';
import { useReadOnlyReason } from './read-only.js';

export function MergeDialog({ ids, onClose, onMerged }: { ids: string[]; onClose: () => void; onMerged?: (survivor: string) => void }) {
  const qs = useQueries({ queries: ids.map((id) => ({ queryKey: keys.memory(id), queryFn: () => call('memory.get', { id }) })) });
  const loaded = qs.every((q) => q.data);
  const details = qs.map((q) => q.data).filter((d): d is MemoryDetail => !!d);
  // The engine's merge-order rule (the older copy survives, as in reflection) picks the default.
  const order = useQuery({ queryKey: keys.mergeOrder(ids), queryFn: () => call('memory.mergeOrder', { ids }) });
  const [survivor, setSurvivor] = useState<string>(ids[0]!);
  const [allowCrossOwner, setAllowCrossOwner] = useState(false);
  useEffect(() => {
    if (order.data) setSurvivor(order.data.survivor);
  }, [order.data?.survivor]);
  const crossOwner = order.data?.cross_owner ?? false;
  const s = details.find((d) => d.memory.id === survivor)?.memory;
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [tags, setTags] = useState('');
  const [importance, setImportance] = useState('');
  // The engine folds importance to the max anyway; only a value the curator typed is sent.
  const maxImportance = details.length ? String(Number(Math.max(...details.map((d) => d.memory.importance)).toFixed(4))) : '';
  const unionTags = useMemo(() => [...new Set(details.flatMap((d) => d.memory.tags))], [loaded]);
  useEffect(() => {
    if (!s) return;
    setTitle(s.title ?? '');
    setContent(s.content);
    setTags(unionTags.join(', '));
    setImportance(maxImportance);
  }, [survivor, loaded]);
  const merge = useMerge();
  const readOnly = useReadOnlyReason();
  const errs = fieldErrors(merge.error);
  const submit = () => {
    if (!s) return;
    const patch: Record<string, unknown> = {};
    if ((title || null) !== s.title) patch['title'] = title || null;
    if (content !== s.content) patch['content'] = content;
    const tagList = tags.split(',').map((t) => t.trim()).filter(Boolean);
    if (JSON.stringify(tagList) !== JSON.stringify(s.tags)) patch['tags'] = tagList;
    const imp = Number(importance);
    if (importance.trim() !== '' && importance.trim() !== maxImportance) patch['importance'] = Number.isFinite(imp) ? imp : importance.trim();
    merge.mutate({ ids, survivor, allow_cross_owner: allowCrossOwner, ...(Object.keys(patch).length ? { patch: patch as never } : {}) }, { onSuccess: (r) => (onMerged?.(r.survivor.id), onClose()) });
  };
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div className="modal wide" role="dialog" aria-label="Merge memories" onClick={(e) => e.stopPropagation()} data-testid="merge-dialog">
        <h3>Merge {ids.length} memories</h3>
        {!loaded ? <Spinner label="Loading the memories…" /> : null}
        <div className="merge-sources">
          {details.map((d) => (
            <label key={d.memory.id} className={`merge-source${d.memory.id === survivor ? ' survivor' : ''}`}>
              <input type="radio" name="survivor" checked={d.memory.id === survivor} onChange={() => setSurvivor(d.memory.id)} data-testid="merge-survivor" data-memory-id={d.memory.id} />
              <div>
                <div>
                  <span className={`type-dot t-${d.memory.type}`} /> <a href={memoryHref(d.memory.id)} title={d.memory.id}>{memoryTitle(d.memory)}</a>{' '}
                  <span className="muted small">
                    importance {fmtNum(d.memory.importance, 2)} · strength {d.memory.strength} · {d.memory.owner || '(unowned)'}
                  </span>
                  {d.memory.id === survivor ? <span className="badge">survivor</span> : <span className="badge warn">archived, lineage kept</span>}
                </div>
                <div className="small">{s && d.memory.id !== survivor ? <TextDiff before={s.content} after={d.memory.content} /> : d.memory.content.slice(0, 400)}</div>
              </div>
            </label>
          ))}
        </div>
        {s ? (
          <div className="merge-fields">
            <label className="block">
              title
              <input value={title} onChange={(e) => setTitle(e.target.value)} data-testid="merge-title" aria-invalid={!!errs['title']} />
              {errs['title'] ? <span className="field-error">{errs['title']}</span> : null}
            </label>
            <label className="block">
              content
              <textarea value={content} onChange={(e) => setContent(e.target.value)} rows={5} data-testid="merge-content" aria-invalid={!!errs['content']} />
              {errs['content'] ? <span className="field-error">{errs['content']}</span> : null}
            </label>
            {content !== s.content ? (
              <div className="small">
                <span className="muted">your edit: </span>
                <TextDiff before={s.content} after={content} />
              </div>
            ) : null}
            <div className="row">
              <label className="block grow">
                tags (the union by default)
                <input value={tags} onChange={(e) => setTags(e.target.value)} />
                {errs['tags'] ? <span className="field-error">{errs['tags']}</span> : null}
              </label>
              <label className="block">
                importance (max by default)
                <input value={importance} onChange={(e) => setImportance(e.target.value)} aria-invalid={!!errs['importance']} />
                {errs['importance'] ? <span className="field-error">{errs['importance']}</span> : null}
              </label>
            </div>
            <p className="muted small">
              The older memory is the default survivor, the same rule as reflection. The survivor keeps a <span className="edge-type">refines</span> edge to each source (lineage) and takes over their edges; the sources are archived. Reinforcements and strength add up. One change in History.
            </p>
          </div>
        ) : null}
        {crossOwner ? (
          <div className="cross-owner-warning" role="alert" data-testid="merge-cross-owner">
            <strong>These memories belong to different owners</strong> ({order.data!.owners.map((o) => o || '(unowned)').join(', ')}). Merging folds one owner's memory into another's and
            archives it.
            <label className="cross-owner-allow">
              <input type="checkbox" checked={allowCrossOwner} onChange={(e) => setAllowCrossOwner(e.target.checked)} data-testid="merge-allow-cross-owner" /> Merge across owners anyway
            </label>
          </div>
        ) : null}
        {Object.keys(errs).length === 0 ? <ErrorBox error={merge.error} /> : null}
        <div className="row">
          <button className="primary" onClick={submit} disabled={!s || merge.isPending || !order.data || (crossOwner && !allowCrossOwner) || !!readOnly} title={readOnly ?? undefined} data-testid="merge-confirm">
            Merge into the survivor
          </button>
          <button onClick={onClose}>Cancel</button>
        </div>
      </div>
    </div>
  );
}
