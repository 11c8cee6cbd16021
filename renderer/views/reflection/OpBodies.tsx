/** The body of each deterministic plan item: merge (side by side), link, rescore, prune. */
import type { PlanSummary } from '../../../core/api/contract/index.js';
import type { FoldFields, LinkOp, MergeOp, PruneOp, RescoreOp } from '../../../core/reflect/types.js';
import { useMemory } from '../../api/hooks.js';
import { fmtNum } from '../../components/common.js';
import { TextDiff } from '../../components/TextDiff.js';
import { MemoryRef } from './MemoryRef.js';

const FOLD: (keyof FoldFields)[] = ['importance', 'salience', 'confidence', 'strength', 'reinforcement_count'];

function Window({ w }: { w: MergeOp['window'] }) {
  return (
    <span className="muted small" title="position among the live entries of the knn window (self counts)">
      window {w.position + 1}/{w.k}
      {w.displaced.length ? ` · above it, archived earlier: ${w.displaced.map((d) => `${d.id.slice(0, 6)} (${d.by})`).join(', ')}` : ''}
    </span>
  );
}

function CosMeter({ cos, min, max }: { cos: number; min: number; max: number }) {
  // 0.7–1.0 is the interesting range; the band [min, max) is where the op fires.
  const lo = 0.7;
  const pct = (v: number) => `${Math.max(0, Math.min(1, (v - lo) / (1 - lo))) * 100}%`;
  return (
    <span className="cos-meter" title={`cos ${cos} (fires in [${min}, ${max}))`}>
      <span className="band" style={{ left: pct(min), width: `calc(${pct(max)} - ${pct(min)})` }} />
      <span className="tick" style={{ left: pct(cos) }} />
    </span>
  );
}

function OwnerLine({ owner }: { owner: string }) {
  return (
    <div className="small muted" data-testid="merge-owner">
      owner: {owner || '(unowned)'}
    </div>
  );
}

export function MergeBody({ o }: { o: MergeOp }) {
  const a = useMemory(o.anchor);
  const d = useMemory(o.dup);
  const am = a.data?.memory;
  const dm = d.data?.memory;
  return (
    <div className="merge-body">
      <div className="merge-meta">
        <span>
          cos <strong>{fmtNum(o.cos, 4)}</strong> ≥ {o.threshold} <CosMeter cos={o.cos} min={o.threshold} max={1} />
        </span>
        <span className="muted">same type: {o.type}</span>
        <Window w={o.window} />
      </div>
      <div className="side-by-side">
        <div className="side keep">
          <div className="side-label">anchor (kept)</div>
          <MemoryRef id={o.anchor} />
          {am ? <OwnerLine owner={am.owner} /> : null}
        </div>
        <div className="side gone">
          <div className="side-label">duplicate (archived)</div>
          <MemoryRef id={o.dup} />
          {dm ? <OwnerLine owner={dm.owner} /> : null}
        </div>
      </div>
      {am && dm && am.owner !== dm.owner ? (
        <div className="plan-note warn" data-testid="merge-cross-owner">
          Different owners: the duplicate of {dm.owner || '(unowned)'} would be folded into a memory of {am.owner || '(unowned)'}.
        </div>
      ) : null}
      {am && dm ? (
        <div className="text-compare" data-testid="merge-text-diff">
          <span className="muted small">text, anchor → duplicate: </span>
          <TextDiff before={`${am.title ? `${am.title}\n` : ''}${am.content}`} after={`${dm.title ? `${dm.title}\n` : ''}${dm.content}`} />
        </div>
      ) : null}
      <table className="fold-table">
        <thead>
          <tr>
            <th>field</th>
            <th>anchor before</th>
            <th>duplicate</th>
            <th>anchor after</th>
          </tr>
        </thead>
        <tbody>
          {FOLD.map((f) => {
            const changed = o.after.anchor[f] !== o.before.anchor[f];
            return (
              <tr key={f} className={changed ? 'changed' : ''}>
                <th>{f}</th>
                <td>{fmtNum(o.before.anchor[f], 4)}</td>
                <td>{fmtNum(o.before.dup[f], 4)}</td>
                <td className={changed ? 'after' : ''}>{fmtNum(o.after.anchor[f], 4)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="edges-moved">
        <div>
          <span className="muted">lineage:</span> <span className="edge-type">refines</span> anchor → duplicate ({o.refines.weight})
        </div>
        {o.edges_moved.length ? (
          <div>
            <span className="muted">edges moved from the duplicate ({o.edges_moved.length}):</span>
            <ul>
              {o.edges_moved.map((e) => (
                <li key={`${e.target_id}|${e.type}`}>
                  <span className="edge-type">{e.type}</span> → <MemoryRef id={e.target_id} /> <span className="muted">({fmtNum(e.weight, 4)})</span>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <div className="muted">no edges to move</div>
        )}
      </div>
    </div>
  );
}

export function LinkBody({ o }: { o: LinkOp }) {
  return (
    <div className="link-body">
      <div className="link-ends">
        <MemoryRef id={o.src} /> <span className="edge-type">— {o.type} {fmtNum(o.weight, 4)} →</span> <MemoryRef id={o.dst} />
      </div>
      <div className="merge-meta">
        <span>
          cos <strong>{fmtNum(o.cos, 4)}</strong> in [{o.threshold.min}, {o.threshold.below}) <CosMeter cos={o.cos} min={o.threshold.min} max={o.threshold.below} />
        </span>
        <Window w={o.window} />
        {o.depends_on.length ? <span className="muted small">needs {o.depends_on.join(', ')}</span> : null}
      </div>
      {o.not_merged ? <NotMergedNote n={o.not_merged} /> : null}
    </div>
  );
}

/** Why two memories with the same text get an edge instead of a merge: the guards that failed, with their values. */
function NotMergedNote({ n }: { n: NonNullable<LinkOp['not_merged']> }) {
  const tags = [...n.differs.tags_src_only.map((t) => `+${t}`), ...n.differs.tags_dst_only.map((t) => `−${t}`)];
  return (
    <div className="not-merged" data-testid="reflection-not-merged" data-text={n.text}>
      <strong>{n.text === 'identical' ? 'Identical texts' : `Near-identical texts (${Math.round(n.similarity * 100)} % of words shared)`}, linked rather than merged:</strong>{' '}
      {n.failed.map((g) => (g.guard === 'cosine' ? `cos ${fmtNum(g.cos, 4)} is below the merge threshold ${g.threshold}` : `the types differ (${g.src_type} vs ${g.dst_type})`)).join(' and ')}.{' '}
      {n.failed.some((g) => g.guard === 'cosine') ? (
        <span className="muted">
          The embedding covers title, content, tags and entities
          {tags.length || n.differs.title ? `; here ${[tags.length ? `the tags differ (${tags.join(' ')})` : '', n.differs.title ? 'the titles differ' : ''].filter(Boolean).join(' and ')}` : ''}. Merge them by hand in Curation if they are one memory.
        </span>
      ) : null}
    </div>
  );
}

export function RescoreBody({ o }: { o: RescoreOp }) {
  const t = o.terms;
  const delta = o.after - o.before;
  return (
    <div className="rescore-body">
      <MemoryRef id={o.memory} />
      <div className="rescore-line">
        importance <strong>{fmtNum(o.before, 4)}</strong> → <strong className={delta > 0 ? 'up' : 'down'}>{fmtNum(o.after, 4)}</strong>{' '}
        <span className={`delta ${delta > 0 ? 'up' : 'down'}`}>
          ({delta > 0 ? '+' : ''}
          {fmtNum(delta, 4)})
        </span>
      </div>
      <div className="terms mono" data-testid="rescore-terms">
        0.5·{fmtNum(t.importance, 4)} + 3·{fmtNum(t.salience, 4)} + 2·σ(B={fmtNum(t.activation, 3)})={fmtNum(t.base, 4)} = {fmtNum(t.raw, 4)}
        {t.floor_applied ? ' → held at the floor 8 (it was ≥ 8)' : t.raw > 10 || t.raw < 0 ? ' → clamped to [0, 10]' : ''}
      </div>
    </div>
  );
}

/** Every prune guard, and why none of them held for this memory. */
export function PruneBody({ o, plan, type }: { o: PruneOp; plan: PlanSummary; type: string | undefined }) {
  const p = plan.forget_policy;
  const guards: [string, string][] = [
    ['protected type', type ? `${type} is not in [${p.protected_types.join(', ')}]` : `not a protected type (${p.protected_types.join(', ')})`],
    ['open todo', type === 'todo' ? 'a todo, but not open' : 'not a todo'],
    ['importance ≥ 8', `importance ${fmtNum(o.importance, 3)} < 8`],
    [`younger than ${p.prune_min_age_hours} h`, `age ${fmtNum(o.age_hours, 1)} h`],
    [`retention ≥ ${o.threshold}`, `retention ${fmtNum(o.retention, 5)} < ${o.threshold}`],
  ];
  return (
    <div className="prune-body">
      <MemoryRef id={o.memory} />
      <div className="merge-meta">
        <span>
          {o.action} · retention <strong>{fmtNum(o.retention, 5)}</strong> &lt; {o.threshold}
        </span>
        <span className="muted">strength {o.strength} · importance {fmtNum(o.importance, 3)}</span>
      </div>
      <div className="muted small">guards, none of which held:</div>
      <ul className="guards" aria-label="guards that did not apply">
        {guards.map(([g, why]) => (
          <li key={g}>
            <span className="guard-x">✗</span> <strong>{g}</strong> <span className="muted">— {why}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
