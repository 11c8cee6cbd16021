/**
 * One op of the plan: what it read (its input set and knobs), what it proposes (its items, a page
 * at a time), and accept / reject for the whole group.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem } from '../../../core/api/contract/index.js';
import type { PlanOp } from '../../../core/reflect/types.js';
import { useHeads } from '../../api/curation.js';
import { useReviewItems, type ItemQuery } from '../../api/reflect.js';
import { ErrorBox, Spinner } from '../../components/common.js';
import { platform } from '../../platform/browser.js';
import { AbstractBody, EpisodeBody, ReconcileBody } from './GenerativeBodies.js';
import { ItemShell } from './ItemShell.js';
import { HeadsContext, type Heads } from './MemoryRef.js';
import { ItemFilters } from './ItemFilters.js';
import { LinkBody, MergeBody, PruneBody, RescoreBody } from './OpBodies.js';

export const OP_TITLE: Record<string, string> = {
  episode: 'Episode writer (model)',
  merge: 'Merge duplicates',
  reconcile: 'Reconcile (model)',
  link: 'Form edges',
  rescore: 'Rescore importance',
  abstract: 'Abstract insights (model)',
  prune: 'Prune',
};

const PAGE: Record<string, number> = { merge: 20, link: 50, rescore: 50, prune: 50 };
export const pageSize = (op: string) => PAGE[op] ?? 20;

/** What the op read: how many memories were live when it ran, and the knobs it used. */
type GroupSummary = PlanSummary['groups'][number];

export function inputSummary(plan: PlanSummary, group: GroupSummary): string[] {
  const p = plan.policy;
  const n = (k: string) => group.notes[k];
  const lines: string[] = [];
  const order = plan.groups.map((g) => g.op);
  const before = plan.groups.slice(0, order.indexOf(group.op));
  const archivedBefore = before.reduce((s, g) => s + (g.op === 'merge' ? g.count : g.op === 'reconcile' ? plan.report.superseded : 0), 0);
  const createdBefore = before.reduce((s, g) => s + (g.op === 'episode' || g.op === 'abstract' || g.op === 'reconcile' ? g.count : 0), 0);
  lines.push(
    `input: the ${plan.store.live.toLocaleString()} live memories in scope${plan.scope ? ` (${plan.scope})` : ''}` +
      (archivedBefore ? `, minus ${archivedBefore} archived by the earlier steps` : '') +
      (createdBefore ? `, plus ${createdBefore} proposed by them` : ''),
  );
  switch (group.op) {
    case 'merge':
      lines.push(`anchors in (created_at, id) order: ${n('anchors') ?? '—'}; knn windows of 6 examined: ${n('windows') ?? '—'}`);
      lines.push(`rule: same type and cos ≥ ${p.merge_threshold} folds the neighbour into the anchor`);
      break;
    case 'link':
      lines.push(`memories examined: ${n('memories') ?? '—'} (rowid order), knn window of 6`);
      lines.push(`rule: ${p.edge_threshold} ≤ cos < ${p.merge_threshold} adds a related edge, at most ${p.max_edges_per_node} per memory, none to an existing target`);
      break;
    case 'rescore':
      lines.push(`memories examined: ${n('memories') ?? '—'}; unchanged (within 1e-6): ${n('unchanged') ?? '—'}`);
      lines.push('rule: clamp(0.5·importance + 3·salience + 2·σ(B), 0, 10), held at 8 for memories at ≥ 8');
      break;
    case 'prune': {
      const f = plan.forget_policy;
      lines.push(`memories examined: ${n('memories') ?? '—'}`);
      const kept = Object.entries(group.notes).filter(([k]) => k.startsWith('kept'));
      // The engine's note keys blank out numbers ("importance N ≥ N"); put the policy's values back.
      const human = (k: string) =>
        k
          .replace(/^kept: /, 'kept by ')
          .replace('importance N ≥ N', 'importance ≥ 8')
          .replace('younger than N h', `younger than ${f.prune_min_age_hours} h`);
      if (kept.length) lines.push(kept.map(([k, v]) => `${human(k)}: ${v}`).join(' · '));
      lines.push(`rule: retention < ${f.prune_activation_threshold}, older than ${f.prune_min_age_hours} h, not protected (types ${f.protected_types.join(', ')}, open todos, importance ≥ 8) → ${f.archive_vs_delete}`);
      break;
    }
    default:
      lines.push(
        Object.entries(group.notes)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' · '),
      );
  }
  return lines;
}

function Body({ o, plan, heads }: { o: PlanOp; plan: PlanSummary; heads: Heads | undefined }) {
  switch (o.op) {
    case 'merge':
      return <MergeBody o={o} />;
    case 'link':
      return <LinkBody o={o} />;
    case 'rescore':
      return <RescoreBody o={o} />;
    case 'prune':
      return <PruneBody o={o} plan={plan} type={heads?.get(o.memory)?.type} />;
    case 'reconcile':
      return <ReconcileBody o={o} />;
    case 'abstract':
      return <AbstractBody o={o} />;
    case 'episode':
      return <EpisodeBody o={o} />;
  }
}

/** The memories whose heads an item shows: its subjects and the targets of a proposed memory's edges (shown by title, not id). */
function headIdsOf(o: PlanOp): string[] {
  const proposed = o.op === 'reconcile' ? o.consolidated : o.op === 'abstract' || o.op === 'episode' ? o.memory : null;
  return [...idsOf(o), ...(proposed?.edges.map((e) => e.target_id) ?? [])];
}

/** The memories an item is about. */
function idsOf(o: PlanOp): string[] {
  switch (o.op) {
    case 'merge':
      return [o.anchor, o.dup, ...o.edges_moved.map((e) => e.target_id)];
    case 'link':
      return [o.src, o.dst];
    case 'rescore':
    case 'prune':
      return [o.memory];
    case 'reconcile':
      return o.cluster;
    case 'abstract':
      return o.episodes.slice(0, 20);
    case 'episode':
      return [];
  }
}

export function GroupSection({
  plan,
  group,
  counts,
  actions,
  onAct,
  shown,
  onMore,
  locked,
}: {
  plan: PlanSummary;
  group: GroupSummary;
  counts: ReviewCounts['groups'][string] | undefined;
  actions: ReviewAction[];
  onAct: (a: ReviewAction) => void;
  shown: number;
  onMore: () => void;
  /** After commit: nothing left to decide. */
  locked: boolean;
}) {
  const size = pageSize(group.op);
  const [query, setQuery] = useState<ItemQuery>({});
  const q = useReviewItems(plan.id, group.op, Math.min(shown, group.count || 1), actions, query);
  const matched = q.data?.matched ?? group.count;
  const list = useRef<HTMLDivElement>(null);
  // j / k move between items, a / r accept or reject the focused one (focus stays on it).
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement).closest('input, select, textarea')) return;
    const cards = Array.from(list.current?.querySelectorAll<HTMLElement>('[data-testid=reflection-item]') ?? []);
    const at = cards.findIndex((c) => c.contains(document.activeElement));
    const id = at >= 0 ? cards[at]!.dataset['opId'] : undefined;
    if (e.key === 'j' || e.key === 'k') {
      const next = cards[Math.min(cards.length - 1, Math.max(0, at < 0 ? 0 : at + (e.key === 'j' ? 1 : -1)))];
      next?.focus();
      next?.scrollIntoView({ block: 'nearest' });
    } else if ((e.key === 'a' || e.key === 'r') && id && !locked) onAct({ do: e.key === 'a' ? 'accept' : 'reject', ids: [id] });
    else return;
    e.preventDefault();
  };
  const items: ReviewItem[] = q.data?.items ?? [];
  const heads = useHeads(items.flatMap((i) => headIdsOf(i.op)));
  useEffect(() => {
    if (q.data && (heads.data || items.length === 0)) platform.mark(`mnemo:diff-rendered:${group.op}`);
  }, [q.data, heads.data, items.length, group.op]);
  return (
    <section className="plan-group" data-testid="reflection-group" data-op={group.op} data-count={group.count}>
      <header className="plan-group-head">
        <h3>
          {OP_TITLE[group.op] ?? group.op} <span className="muted">({group.name})</span>
        </h3>
        <span className="muted small">
          {group.count.toLocaleString()} items{counts ? ` · ${counts.accepted.toLocaleString()} accepted` : ''}
          {/* Not all of them were rejected by someone: proposals across owners start unaccepted. */}
          {counts?.rejected ? ` · ${counts.rejected.toLocaleString()} not accepted` : ''}
          {counts?.follows ? ` · ${counts.follows.toLocaleString()} follow a rejection` : ''} · planned in {Math.round(group.ms)} ms
        </span>
        <span className="spacer" />
        <button onClick={() => onAct({ do: 'accept', group: group.op })} disabled={locked || !group.count} data-testid="reflection-accept-group">
          Accept all
        </button>
        <button onClick={() => onAct({ do: 'reject', group: group.op })} disabled={locked || !group.count} data-testid="reflection-reject-group">
          Reject all
        </button>
      </header>
      <div className="plan-input" data-testid="reflection-input">
        {inputSummary(plan, group).map((l) => (
          <div key={l}>{l}</div>
        ))}
        <div>output: {group.count.toLocaleString()} proposals</div>
      </div>
      {group.count === 0 ? <p className="muted">This step proposes nothing for this store.</p> : <ItemFilters op={group.op} query={query} onChange={setQuery} total={group.count} matched={matched} />}
      <ErrorBox error={q.error} />
      {q.isLoading ? <Spinner label="Loading the items…" /> : null}
      <HeadsContext.Provider value={heads.data}>
        <div ref={list} onKeyDown={onKey} className="plan-items" data-testid="reflection-items" role="group" aria-label={`${group.op} items: j / k to move, a / r to accept or reject`}>
        {items.map((it) => (
          <ItemShell
            key={it.op.id}
            id={it.op.id}
            op={it.op.op}
            decision={{ state: it.state, because: it.because, note: it.note }}
            crossOwner={it.cross_owner}
            reason={it.op.reason}
            subjects={idsOf(it.op).slice(0, it.op.op === 'merge' ? 2 : undefined)}
            locked={locked}
            onAccept={() => onAct({ do: 'accept', ids: [it.op.id] })}
            onReject={() => onAct({ do: 'reject', ids: [it.op.id] })}
          >
            <Body o={it.op} plan={plan} heads={heads.data} />
          </ItemShell>
        ))}
        </div>
      </HeadsContext.Provider>
      {matched > shown ? (
        <button className="more" onClick={onMore} data-testid="reflection-more">
          Show {Math.min(size * 4, matched - shown).toLocaleString()} more of {(matched - shown).toLocaleString()}
        </button>
      ) : null}
    </section>
  );
}
