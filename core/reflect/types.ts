/**
 * The ReflectionPlan: a reviewable diff of one reflection pass. Every operation names what it
 * touches, its before and after values, and why (the cosine, the threshold, the guard). Plain JSON:
 * it is written to a file by `mnemo reflect --dry-run`, shown by the workbench, and handed back to
 * apply. This file has no runtime imports beyond types, so the renderer can import it.
 */
import type { ForgetPolicy } from '../model/forget-policy.js';
import type { NeighbourStats } from './neighbours.js';
import type { OpName, ReflectionPolicy } from './policy.js';

/** Why a proposed link joins two (nearly) identical texts instead of merging them (see not-merged.ts). */
export type MergeGuard = { guard: 'cosine'; cos: number; threshold: number } | { guard: 'type'; src_type: string; dst_type: string };

export interface NotMerged {
  text: 'identical' | 'near-identical';
  /** Overlap of the two contents' word sets (Jaccard), 1 for identical texts. */
  similarity: number;
  /** The merge guards that failed, with the values that failed them. */
  failed: MergeGuard[];
  /** What else goes into the embedding and differs: tags only one side has, and the titles. */
  differs: { tags_src_only: string[]; tags_dst_only: string[]; title: boolean };
  summary: string;
}

export interface EdgeTriple {
  target_id: string;
  type: string;
  weight: number;
}

/** Where a knn-derived proposal sat in its window, and which earlier archivals let it in. */
export interface WindowInfo {
  /** 0-based position among the live entries of the k-window (self counts). */
  position: number;
  k: number;
  /** Entries ranked above it that earlier ops archived (with the op that archived each). */
  displaced: { id: string; by: string }[];
}

export interface FoldFields {
  importance: number;
  salience: number;
  confidence: number;
  strength: number;
  reinforcement_count: number;
}

export interface MergeOp {
  id: string;
  op: 'merge';
  anchor: string;
  dup: string;
  type: string;
  cos: number;
  threshold: number;
  reason: string;
  window: WindowInfo;
  before: { anchor: FoldFields; dup: FoldFields };
  after: { anchor: FoldFields };
  /** Edges copied from the dup (new ones, or raised weights). */
  edges_moved: EdgeTriple[];
  refines: EdgeTriple;
}

export interface LinkOp {
  id: string;
  op: 'link';
  src: string;
  dst: string;
  type: 'related';
  weight: number;
  cos: number;
  threshold: { min: number; below: number };
  reason: string;
  window: WindowInfo;
  /** Ops this link exists because of (a reconcile that created an endpoint). */
  depends_on: string[];
  /** Present when both ends carry the same (or nearly the same) text: why they were not merged. */
  not_merged?: NotMerged;
}

export interface RescoreOp {
  id: string;
  op: 'rescore';
  memory: string;
  before: number;
  after: number;
  terms: { importance: number; salience: number; activation: number; base: number; raw: number; floor_applied: boolean };
  reason: string;
}

export interface PruneOp {
  id: string;
  op: 'prune';
  memory: string;
  action: 'archive' | 'delete';
  retention: number;
  threshold: number;
  strength: number;
  importance: number;
  age_hours: number;
  reason: string;
}

/** A memory a generative op proposes to create (its id is fixed at planning time). */
export interface NewMemorySpec {
  id: string;
  type: string;
  title: string | null;
  content: string;
  owner: string;
  importance: number;
  tags: string[];
  created_at: number;
  edges: EdgeTriple[];
}

/** The model call behind a generative proposal, kept so a reviewer can read what was asked and answered. */
export interface LlmExchange {
  prompt: string;
  reply: string;
}

export interface ReconcileOp {
  id: string;
  op: 'reconcile';
  cluster: string[];
  cluster_cos: number[];
  consolidated: NewMemorySpec;
  archive: string[];
  /** Ids the model named that were not in the cluster (ignored: the guard). */
  rejected_ids: string[];
  reason: string;
  exchange?: LlmExchange;
}

export interface AbstractOp {
  id: string;
  op: 'abstract';
  memory: NewMemorySpec;
  episodes: string[];
  reason: string;
  exchange?: LlmExchange;
}

export interface EpisodeOp {
  id: string;
  op: 'episode';
  memory: NewMemorySpec;
  reason: string;
  exchange?: LlmExchange;
}

export type PlanOp = MergeOp | LinkOp | RescoreOp | PruneOp | ReconcileOp | AbstractOp | EpisodeOp;

export interface OpGroup {
  op: OpName;
  /** The reference's name for this op (merge_duplicates, form_edges, …). */
  name: string;
  ops: PlanOp[];
  ms: number;
  /** What the op looked at (anchors, windows, skipped guards…). */
  notes: Record<string, number | string>;
}

export interface ReflectionReport {
  merged: number;
  edges_added: number;
  rescored: number;
  pruned: number;
  created: number;
  reconciled: number;
  superseded: number;
  interrupted: boolean;
  stopped_in: string | null;
  duration_ms: number | null;
}

export interface GenerativeUsage {
  calls: number;
  retries: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
  capped: string | null;
  model: string | null;
}

export interface ReflectionPlan {
  kind: 'mnemo.reflection-plan';
  version: 1;
  id: string;
  created_at: number;
  /** The instant every time-dependent value was computed at. */
  now: number;
  store: { name: string; fingerprint: string; data_version: number; memories: number; live: number };
  scope: string | null;
  policy: ReflectionPolicy;
  forget_policy: ForgetPolicy;
  until: OpName | null;
  groups: OpGroup[];
  report: ReflectionReport;
  neighbours: NeighbourStats | null;
  generative: GenerativeUsage | null;
  duration_ms: number;
}

/**
 * What committing reflection operations does to the store (effects.ts counts it, for the preview
 * and for the result alike): edges written (links, and each merge's `refines` edge and the edges it
 * moves), memories archived (merged duplicates, prunes, superseded by a reconcile), deleted,
 * rescored and created.
 */
export interface CommitEffects {
  edges: number;
  archived: number;
  deleted: number;
  rescored: number;
  created: number;
}

export interface ApplyResult {
  change_id: number | null;
  plan_id: string;
  report: ReflectionReport;
  applied: string[];
  /** Accepted ops that were not applied, with why (a dropped dependency, a guard that no longer holds). */
  skipped: { id: string; reason: string }[];
  /** Ops applied with values that differ from the plan (an input changed because something was dropped). */
  adjusted: { id: string; field: string; planned: number; applied: number }[];
  resumed_from: number | null;
  /** What the applied ops did, counted as the review's preview counts the accepted ones (effects.ts). */
  effects: CommitEffects;
}
