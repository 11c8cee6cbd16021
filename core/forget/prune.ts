/**
 * Pruning as nooa's ForgettingEngine.prune: every live memory in scope (rowid order) that
 * `should_prune` says goes is archived (soft tombstone) or deleted (row and edges in and out),
 * with `shouldStop` checked between items. Unlike nooa, the whole pass is one journalled
 * change, so it can be undone; a dry run computes the same list and writes nothing.
 */
import type { Engine } from '../engine/engine.js';
import { memoryHead } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';
import { DEFAULT_FORGET_POLICY, pruneDecision, type ForgetPolicy } from './policy.js';
import { iterUsageRecords } from '../store/queries/usage.js';

export interface PruneOptions {
  now: number;
  owner?: OwnerScope;
  policy?: ForgetPolicy;
  /** Overrides `policy.archive_vs_delete`. */
  action?: 'archive' | 'delete';
  dryRun?: boolean;
  /** Checked before each memory; returning true ends the pass (what was pruned so far stays pruned). */
  shouldStop?: () => boolean;
}

export interface PruneCandidate {
  id: string;
  retention: number;
  reason: string;
  type: string;
  owner: string;
  head: string;
}

export interface PruneOutcome {
  action: 'archive' | 'delete';
  candidates: PruneCandidate[];
  pruned: string[];
  stopped: boolean;
  changeId: number | null;
}

export function pruneCandidates(engine: Engine, opts: Pick<PruneOptions, 'now' | 'owner' | 'policy'>): PruneCandidate[] {
  const policy = opts.policy ?? DEFAULT_FORGET_POLICY;
  const out: PruneCandidate[] = [];
  if (!policy.enabled) return out;
  for (const m of iterUsageRecords(engine.store, { owner: opts.owner ?? null })) {
    const d = pruneDecision(m, opts.now, policy);
    if (d.prune) out.push({ id: m.id, retention: d.retention, reason: d.reason, type: m.type, owner: m.owner, head: memoryHead(m) });
  }
  return out;
}

export function prune(engine: Engine, opts: PruneOptions): PruneOutcome {
  const policy = opts.policy ?? DEFAULT_FORGET_POLICY;
  const action = opts.action ?? policy.archive_vs_delete;
  const candidates = pruneCandidates(engine, opts);
  if (opts.dryRun || candidates.length === 0) return { action, candidates, pruned: [], stopped: false, changeId: null };
  const store = engine.store;
  let stopped = false;
  const label = `prune ${candidates.length} ${candidates.length === 1 ? 'memory' : 'memories'} (${action})`;
  const { result, changeId } = store.change(label, 'forget.prune', () => {
    const pruned: string[] = [];
    for (const c of candidates) {
      if (opts.shouldStop?.()) {
        stopped = true;
        break;
      }
      const done = action === 'delete' ? store.delete(c.id) : store.setArchived(c.id, true);
      if (done) pruned.push(c.id);
    }
    return pruned;
  }, { action, now: opts.now, scope: opts.owner ?? null });
  return { action, candidates, pruned: result, stopped, changeId };
}
