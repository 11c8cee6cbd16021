/** Plan items proposed by a model (reconcile, abstract, episode), with the prompt and the reply that produced them. */
import type { AbstractOp, EpisodeOp, LlmExchange, NewMemorySpec, ReconcileOp } from '../../../core/reflect/types.js';
import { fmtNum } from '../../components/common.js';
import { MemoryRef } from './MemoryRef.js';

export function Exchange({ exchange }: { exchange: LlmExchange | undefined }) {
  if (!exchange) return <div className="muted small">The plan does not carry this call's prompt and reply (made by an older engine).</div>;
  return (
    <details className="exchange" data-testid="reflection-exchange">
      <summary>Prompt and reply</summary>
      <div className="exchange-grid">
        <div>
          <div className="side-label">prompt</div>
          <pre data-testid="reflection-prompt">{exchange.prompt}</pre>
        </div>
        <div>
          <div className="side-label">reply</div>
          <pre data-testid="reflection-reply">{exchange.reply}</pre>
        </div>
      </div>
    </details>
  );
}

function Proposed({ spec }: { spec: NewMemorySpec }) {
  return (
    <div className="proposed-memory">
      <div className="side-label">
        new {spec.type} · importance {spec.importance} · owner {spec.owner || '(unowned)'}
      </div>
      {spec.title ? <strong>{spec.title}</strong> : null}
      <div className="content-text">{spec.content}</div>
      {spec.tags.length ? (
        <div className="chips">
          {spec.tags.map((t) => (
            <span key={t} className="tag small">
              {t}
            </span>
          ))}
        </div>
      ) : null}
      {spec.edges.length ? (
        <div className="muted small">
          edges:{' '}
          {spec.edges.map((e, i) => (
            <span key={`${e.type}-${e.target_id}`}>
              {i ? ', ' : ''}
              {e.type} → <MemoryRef id={e.target_id} />
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}


export function ReconcileBody({ o }: { o: ReconcileOp }) {
  return (
    <div className="gen-body">
      <div className="side-by-side">
        <div className="side gone">
          <div className="side-label">cluster ({o.cluster.length})</div>
          <ul>
            {o.cluster.map((id, i) => (
              <li key={id}>
                <MemoryRef id={id} /> <span className="muted small">cos {fmtNum(o.cluster_cos[i] ?? 0, 4)}</span> {o.archive.includes(id) ? <span className="badge warn">superseded</span> : null}
              </li>
            ))}
          </ul>
          {o.rejected_ids.length ? <div className="muted small">ids the model named outside the cluster (ignored): {o.rejected_ids.join(', ')}</div> : null}
        </div>
        <div className="side keep">
          <Proposed spec={o.consolidated} />
        </div>
      </div>
      <Exchange exchange={o.exchange} />
    </div>
  );
}

export function AbstractBody({ o }: { o: AbstractOp }) {
  return (
    <div className="gen-body">
      <Proposed spec={o.memory} />
      <div className="muted small">derived from {o.episodes.length} episodes</div>
      <Exchange exchange={o.exchange} />
    </div>
  );
}

export function EpisodeBody({ o }: { o: EpisodeOp }) {
  return (
    <div className="gen-body">
      <Proposed spec={o.memory} />
      <Exchange exchange={o.exchange} />
    </div>
  );
}

export { MemoryRef };
