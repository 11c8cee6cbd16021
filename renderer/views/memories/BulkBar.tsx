/** Bulk actions on the multi-selection: archive, restore, tag, forget, merge, and link them all to one memory. */
import { useState } from 'react';
import { useArchive, useTag } from '../../api/hooks.js';
import { useLinkMany } from '../../api/curation.js';
import { ErrorBox } from '../../components/common.js';
import { useUi } from '../../state/ui.js';
import { ForgetButton } from '../curation/ForgetButton.js';
import { EraseButton } from '../privacy/EraseButton.js';
import { EDGE_TYPES, useMemorySearch } from '../curation/LinkForm.js';
import { MergeDialog } from '../curation/MergeDialog.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import '../curation/curation.css';

/** Links every selected memory to one target as one journalled change (one undo in History). */
function BulkLink({ ids, onDone }: { ids: string[]; onDone: () => void }) {
  const [text, setText] = useState('');
  const [type, setType] = useState<string>('related');
  const search = useMemorySearch(text);
  const link = useLinkMany();
  const run = (dst: string) => {
    const srcs = ids.filter((x) => x !== dst);
    if (srcs.length === 0) return;
    link.mutate({ srcs, dst, type: type as (typeof EDGE_TYPES)[number], weight: 1 }, { onSuccess: onDone });
  };
  return (
    <div className="link-form bulk" data-testid="bulk-link">
      <div className="row">
        link the {ids.length} selected →{' '}
        <select value={type} onChange={(e) => setType(e.target.value)}>
          {EDGE_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder="find the target" className="grow" />
        {link.isPending ? <span className="muted small">linking {ids.length}…</span> : null}
      </div>
      {search.data?.rows.length ? (
        <ul className="dropdown static">
          {search.data.rows.map((m) => (
            <li key={m.id}>
              <button onClick={() => run(m.id)} disabled={link.isPending}>
                <span className={`type-dot t-${m.type}`} /> {m.head}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorBox error={link.error} />
    </div>
  );
}

export function BulkBar() {
  const selected = useUi((s) => s.selected);
  const clear = useUi((s) => s.clearSelected);
  const archive = useArchive();
  const tag = useTag();
  const [tagText, setTagText] = useState('');
  const [merging, setMerging] = useState(false);
  const [linking, setLinking] = useState(false);
  const readOnly = useReadOnlyReason();
  const ids = [...selected];
  if (ids.length === 0 && readOnly) return <div className="bulkbar muted" data-testid="read-only-note">{readOnly}</div>;
  if (ids.length === 0) return <div className="bulkbar muted">Tick rows to archive, tag, forget, merge or link several memories at once.</div>;
  const tags = tagText.split(',').map((t) => t.trim()).filter(Boolean);
  return (
    <div className="bulkbar" data-testid="bulk-bar">
      <strong>{ids.length} selected</strong>
      {readOnly ? <span className="muted small">read-only: nothing can be changed</span> : null}
      {/* Read-only: every write control below is off, with the reason as its tooltip. */}
      <fieldset className="bare" disabled={!!readOnly} title={readOnly ?? undefined}>
      <button onClick={() => archive.mutate({ ids, archived: true }, { onSuccess: clear })} disabled={archive.isPending} data-testid="bulk-archive">
        Archive
      </button>
      <button onClick={() => archive.mutate({ ids, archived: false }, { onSuccess: clear })} disabled={archive.isPending}>
        Restore
      </button>
      <input value={tagText} onChange={(e) => setTagText(e.target.value)} placeholder="tag1, tag2" data-testid="bulk-tag-input" />
      <button onClick={() => tag.mutate({ ids, add: tags }, { onSuccess: () => setTagText('') })} disabled={!tags.length || tag.isPending} data-testid="bulk-tag-add">
        Add tag
      </button>
      <button onClick={() => tag.mutate({ ids, remove: tags }, { onSuccess: () => setTagText('') })} disabled={!tags.length || tag.isPending}>
        Remove tag
      </button>
      <button onClick={() => setMerging(true)} disabled={ids.length < 2} data-testid="bulk-merge" title="Merge the selected memories into one survivor">
        Merge…
      </button>
      <button onClick={() => setLinking((v) => !v)} data-testid="bulk-link-open">
        Link…
      </button>
      <ForgetButton ids={ids} onDone={clear} />
      <EraseButton ids={ids} onDone={clear} />
      </fieldset>
      <button className="link" onClick={clear}>
        Clear selection
      </button>
      <ErrorBox error={archive.error ?? tag.error} />
      {linking ? <BulkLink ids={ids} onDone={() => setLinking(false)} /> : null}
      {merging ? <MergeDialog ids={ids} onClose={() => setMerging(false)} onMerged={clear} /> : null}
    </div>
  );
}
