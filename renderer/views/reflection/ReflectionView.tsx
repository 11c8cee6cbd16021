/**
 * Reflection: plan a pass (dry run, with progress), review it as a diff grouped by op, accept or
 * reject items or whole groups (dependent items follow, and say so), step op by op
 * (merge → link → rescore → prune) seeing each one's input and output, and commit the accepted
 * items as one undoable change, which then appears in History. The engine keeps the plan; this
 * view reads it a page at a time.
 */
import { useRef, useState } from 'react';
import { useCancelWriteJob, useWriteJobProgress } from '../../api/jobs.js';
import { useCancelPlan, useCommitPlan, usePlan, usePlanProgress, useReviewCounts, type PlanInput } from '../../api/reflect.js';
import { EmptyState, ErrorBox, fmtTime } from '../../components/common.js';
import { etaText } from '../../components/job-words.js';
import { platform } from '../../platform/browser.js';
import { buildHash, navigate, useRoute } from '../../state/router.js';
import { CommitBar } from './CommitBar.js';
import { GroupSection, OP_TITLE, pageSize } from './GroupSection.js';
import { PlanForm } from './PlanForm.js';
import { usePlanStore } from './plan-store.js';
import './reflection.css';

function Progress({ running }: { running: boolean }) {
  const p = usePlanProgress(running);
  if (!running) return null;
  const d = p.data;
  const frac = d && d.total > 0 ? d.done / d.total : null;
  return (
    <div className="plan-progress" data-testid="reflection-progress" data-op={d?.op ?? ''} role="progressbar" aria-valuenow={frac === null ? undefined : Math.round(frac * 100)}>
      <span>
        Planning{d?.op ? `: ${d.op === 'load' ? 'loading memories and finding neighbours' : (OP_TITLE[d.op] ?? d.op)}` : '…'}
        {/* The load's items are the neighbour join's row probes: a percentage says more than their count. */}
        {frac === null ? '' : d?.op === 'load' ? ` — ${Math.floor(frac * 100)} %` : ` — ${d!.done.toLocaleString()} / ${d!.total.toLocaleString()}`}
        {d?.stopping ? ' — stopping at the next item…' : d?.eta_s != null ? ` · ${etaText(d.eta_s)} in this step` : ''}
      </span>
      <div className="meter wide">
        <span className={frac === null ? 'indeterminate' : ''} style={{ width: frac === null ? '30%' : `${frac * 100}%` }} />
      </div>
    </div>
  );
}

export function ReflectionView() {
  const route = useRoute();
  const step = route.params.get('step');
  const { plan, actions, result, setPlan, act, undoAction, setResult } = usePlanStore();
  const planner = usePlan();
  const cancel = useCancelPlan();
  const commit = useCommitPlan();
  const commitProgress = useWriteJobProgress(commit.isPending);
  const cancelCommit = useCancelWriteJob();
  const counts = useReviewCounts(plan?.id ?? null, actions);
  const lastInput = useRef<PlanInput>({});
  const [shown, setShown] = useState<Record<string, number>>({});

  const runPlan = (input: PlanInput) => {
    lastInput.current = input;
    commit.reset();
    cancel.reset();
    platform.mark('mnemo:plan-start');
    planner.mutate(input, {
      onSuccess: (p) => {
        setPlan(p);
        setShown({});
        platform.mark('mnemo:plan-ready');
      },
    });
  };
  const groups = plan ? plan.groups.filter((g) => !step || g.op === step) : [];
  const stepIndex = plan ? plan.groups.findIndex((g) => g.op === step) : -1;
  const setStep = (s: string | null) => navigate(buildHash('reflection', null, { step: s }), { replace: true });
  const c = counts.data;
  // While a new plan is being made, the one on screen is about to be replaced: it reads the store as
  // it was, so it cannot be decided on or committed (a commit then applied the old plan, or the new
  // one once it arrived, whichever the click met).
  const replacing = plan !== null && planner.isPending;
  // The counts answer for an earlier list of decisions until the engine has counted this one.
  const countsCurrent = counts.data !== undefined && !counts.isPlaceholderData;

  return (
    <div className="reflection-view">
      <div className="reflection-top">
        <h2>Reflection</h2>
        <PlanForm running={planner.isPending} stopping={cancel.isPending || cancel.data?.cancelled === true} onPlan={runPlan} onCancel={() => cancel.mutate()} />
        <Progress running={planner.isPending} />
        <ErrorBox error={planner.error} />
      </div>
      {!plan && !planner.isPending ? (
        <EmptyState title="No plan yet">
          Plan a reflection pass: nothing is written until you commit. The plan lists every merge, new edge, importance change and prune with its reason; accept or reject each, then commit them as one change you can undo in History.
        </EmptyState>
      ) : null}
      {plan ? (
        <>
          <div className="plan-summary" data-testid="reflection-plan-summary" data-plan-id={plan.id} data-items={plan.items} data-replacing={replacing}>
            <span>
              plan <span className="mono">{plan.id.slice(0, 8)}</span> of {plan.store.name} at {fmtTime(plan.now)} ·{' '}
              {/* A plan stopped while loading read no memory: its zero counts are not the store's. */}
              {plan.report.stopped_in === 'load' ? (
                <span data-testid="reflection-stopped-in-load">stopped while reading the memories, before planning anything</span>
              ) : (
                `${plan.store.live.toLocaleString()} live memories · ${plan.items.toLocaleString()} proposals`
              )}{' '}
              · {plan.report.interrupted ? 'stopped after' : 'planned in'} {Math.round(plan.duration_ms).toLocaleString()} ms
              {plan.report.interrupted ? <span className="badge warn">stopped in {plan.report.stopped_in}</span> : null}
              {plan.until ? <span className="badge">up to {plan.until}</span> : null}
              {replacing ? (
                <span className="badge warn" data-testid="reflection-replacing">
                  being replaced: a new plan is being made
                </span>
              ) : null}
            </span>
            {plan.cross_owner ? (
              <span className="badge warn" data-testid="reflection-cross-owner" title="Merges and links between memories of two owners start unaccepted; each is flagged. Accept one to apply it.">
                {plan.cross_owner.toLocaleString()} across owners start unaccepted
              </span>
            ) : null}
            {plan.neighbours ? <span className="muted small"> · neighbour pairs examined {plan.neighbours.pairs_exact.toLocaleString()} of {plan.neighbours.pairs_all.toLocaleString()}</span> : null}
            {plan.generative ? (
              <span className="muted small">
                {' '}
                · model {plan.generative.model}: {plan.generative.calls} calls, {plan.generative.prompt_tokens + plan.generative.completion_tokens} tokens
                {plan.generative.capped ? ` (${plan.generative.capped})` : ''}
              </span>
            ) : null}
          </div>
          <nav className="stepper" aria-label="steps">
            <button className={!step ? 'on' : ''} onClick={() => setStep(null)} data-testid="reflection-step-all">
              All steps
            </button>
            {plan.groups.map((g, i) => (
              <button key={g.op} className={step === g.op ? 'on' : ''} onClick={() => setStep(g.op)} data-testid={`reflection-step-${g.op}`}>
                {i + 1}. {g.op} <span className="n">{g.count.toLocaleString()}</span>
              </button>
            ))}
            <span className="step-nav">
              {actions.length && !result ? (
                <button onClick={undoAction} title="Take back your last accept / reject" data-testid="reflection-undo-decision">
                  ↶ undo last decision
                </button>
              ) : null}
              {step ? (
                <>
                  <button onClick={() => setStep(plan.groups[stepIndex - 1]?.op ?? null)} disabled={stepIndex <= 0}>
                    ← previous step
                  </button>
                  <button onClick={() => setStep(plan.groups[stepIndex + 1]?.op ?? null)} disabled={stepIndex >= plan.groups.length - 1}>
                    next step →
                  </button>
                </>
              ) : null}
            </span>
          </nav>
          <CommitBar
            accepted={c?.accepted ?? 0}
            acceptedIds={c?.accepted_ids ?? null}
            total={plan.items}
            follows={c?.follows ?? 0}
            effects={c?.effects ?? null}
            pending={commit.isPending}
            countsCurrent={countsCurrent}
            replacing={replacing}
            progress={commitProgress.data}
            cancelling={cancelCommit.isPending || cancelCommit.data?.cancelled === true}
            onCancel={() => cancelCommit.mutate()}
            cancelTooLate={cancelCommit.data?.cancelled === false}
            error={commit.error}
            result={result}
            onCommit={() => {
              cancelCommit.reset();
              commit.mutate({ plan_id: plan.id, actions }, { onSuccess: (r) => setResult(r) });
            }}
            onReplan={() => runPlan(lastInput.current)}
          />
          <div className="plan-groups">
            {groups.map((g) => (
              <GroupSection
                key={`${plan.id}-${g.op}`}
                plan={plan}
                group={g}
                counts={c?.groups[g.op]}
                actions={actions}
                onAct={act}
                locked={result !== null || commit.isPending || replacing}
                shown={shown[g.op] ?? pageSize(g.op)}
                onMore={() => setShown((s) => ({ ...s, [g.op]: (s[g.op] ?? pageSize(g.op)) + pageSize(g.op) * 4 }))}
              />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
