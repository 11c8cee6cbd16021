/** Alias proposals (identity resolution, Eq. 6): apply one as an undoable merge, or reject the pair for good. */
import type { AliasProposalView } from '../../../core/api/contract/index.js';
import { useAliasList, useAliasPlan, useApplyAliases, useRejectAlias } from '../../api/beliefs.js';
import { ErrorBox, fmtNum, Spinner } from '../../components/common.js';

function Proposal({ p, basis }: { p: AliasProposalView; basis: string }) {
  const apply = useApplyAliases();
  const reject = useRejectAlias();
  return (
    <li className="alias" data-testid="alias-proposal" data-alias={p.alias} data-canonical={p.canonical}>
      <div>
        <strong>{p.alias}</strong> → <strong>{p.canonical}</strong>{' '}
        <span className="muted small">
          {fmtNum(p.divergence_per_attribute, 3)} bits per shared attribute over {p.shared.length} ({p.shared.join(', ')}) · {p.deltas.alias} vs {p.deltas.canonical} deltas · names {p.name_relation}
        </span>
      </div>
      <div className="row">
        <button onClick={() => apply.mutate({ merges: [{ alias: p.alias, canonical: p.canonical, divergence: p.divergence, shared: p.shared.length }], basis })} disabled={apply.isPending} data-testid="alias-apply">
          Merge
        </button>
        <button onClick={() => reject.mutate({ a: p.alias, b: p.canonical })} disabled={reject.isPending} data-testid="alias-reject">
          Reject
        </button>
      </div>
      <ErrorBox error={apply.error ?? reject.error} />
    </li>
  );
}

export function AliasPanel() {
  const plan = useAliasPlan();
  const list = useAliasList();
  return (
    <div className="panel" data-testid="alias-panel">
      <h3>Alias proposals</h3>
      <ErrorBox error={plan.error} />
      {plan.isLoading ? <Spinner label="Comparing entities…" /> : null}
      {plan.data && plan.data.proposals.length === 0 ? <p className="muted small">No two names look like the same entity (≤ {plan.data.threshold_bits_per_attribute} bit per shared attribute over ≥ {plan.data.min_overlap} attributes).</p> : null}
      <ul className="aliases">
        {plan.data?.proposals.map((p) => (
          <Proposal key={p.id} p={p} basis={plan.data!.basis} />
        ))}
      </ul>
      {plan.data?.near_misses.length ? (
        <details>
          <summary className="muted small">{plan.data.near_misses.length} near misses</summary>
          <ul className="small">
            {plan.data.near_misses.slice(0, 20).map((p) => (
              <li key={p.id}>
                {p.alias} / {p.canonical}: {fmtNum(p.divergence_per_attribute, 2)} bits per attribute over {p.shared.length}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {list.data && (list.data.aliases.length || list.data.rejections.length) ? (
        <div className="small">
          <h4>Merged</h4>
          {list.data.aliases.map((a) => (
            <div key={a.alias}>
              {a.alias} → {a.canonical}
            </div>
          ))}
          {list.data.rejections.length ? <h4>Rejected pairs</h4> : null}
          {list.data.rejections.map((r) => (
            <div key={`${r.a}|${r.b}`} className="muted">
              {r.a} ≠ {r.b}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
