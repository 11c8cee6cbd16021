/** Bulk actions on the multi-selection: archive, restore, add or remove a tag. */
import { useState } from 'react';
import { useArchive, useTag } from '../../api/hooks.js';
import { ErrorBox } from '../../components/common.js';
import { useUi } from '../../state/ui.js';

export function BulkBar() {
  const selected = useUi((s) => s.selected);
  const clear = useUi((s) => s.clearSelected);
  const archive = useArchive();
  const tag = useTag();
  const [tagText, setTagText] = useState('');
  const ids = [...selected];
  if (ids.length === 0) return <div className="bulkbar muted">Tick rows to archive or tag several memories at once.</div>;
  const tags = tagText.split(',').map((t) => t.trim()).filter(Boolean);
  return (
    <div className="bulkbar" data-testid="bulk-bar">
      <strong>{ids.length} selected</strong>
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
      <button className="link" onClick={clear}>
        Clear selection
      </button>
      <ErrorBox error={archive.error ?? tag.error} />
    </div>
  );
}
