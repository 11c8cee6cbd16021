/** After a drag between two nodes: choose the edge type and weight, then add it (one undoable change). */
import { useState } from 'react';
import type { GraphNode } from '../../../core/api/contract/index.js';
import { useLink } from '../../api/curation.js';
import { ErrorBox } from '../../components/common.js';
import { EDGE_TYPES } from '../curation/LinkForm.js';

export function PendingLink({ src, dst, onClose }: { src: GraphNode | undefined; dst: GraphNode | undefined; onClose: () => void }) {
  const [type, setType] = useState<string>('related');
  const [weight, setWeight] = useState('1');
  const link = useLink();
  if (!src || !dst) return null;
  const w = Number(weight);
  return (
    <div className="pending-link panel" role="dialog" aria-label="new edge" data-testid="pending-link" data-src={src.id} data-dst={dst.id}>
      <div>
        <strong>{src.head}</strong> → <strong>{dst.head}</strong>
      </div>
      <div className="row">
        <select value={type} onChange={(e) => setType(e.target.value)} data-testid="pending-link-type">
          {EDGE_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
        <label>
          weight <input value={weight} onChange={(e) => setWeight(e.target.value)} size={4} aria-invalid={!(w >= 0 && w <= 1)} />
        </label>
        <button className="primary" disabled={!(w >= 0 && w <= 1) || link.isPending} onClick={() => link.mutate({ src: src.id, dst: dst.id, type: type as (typeof EDGE_TYPES)[number], weight: w }, { onSuccess: onClose })} data-testid="pending-link-add">
          Add edge
        </button>
        <button onClick={onClose}>Cancel</button>
      </div>
      {!(w >= 0 && w <= 1) ? <div className="field-error">weight must be a number from 0 to 1</div> : null}
      <ErrorBox error={link.error} />
    </div>
  );
}
