/**
 * Recall: the scoring pipeline as a dry run (`recall.explain`), as a touching read (`recall.run`,
 * `recall.search`), as a spontaneous injection (`recall.inject`), and the question the reference
 * cannot answer (`recall.whyNot`). The result types live in
 * core/recall/types.ts (type-only imports), so the renderer can import them.
 */
import { z } from 'zod';
import { method } from '../define.js';
import { atField, hopsField, kField, profileField, queryField, scopeField } from './shared/fields.js';
import type { RecallProfileName, Source, ExplainRow, SpreadPath, RecallStats, ExplainResult, RecallItem, RecallResult, LegVerdict, WhyNotResult, RecallProfileInfo, ScoreTerms } from '../../recall/types.js';
export type { RecallProfileName, Source, ExplainRow, SpreadPath, RecallStats, ExplainResult, RecallItem, RecallResult, LegVerdict, WhyNotResult, RecallProfileInfo, ScoreTerms };

/** The built-in profiles; a store may save more (profiles.save), and every `profile` field takes those too. */
export const PROFILE_NAMES = ['nooa-0.0.9', 'mnemo'] as const satisfies readonly RecallProfileName[];

export const recallInput = z.object({
  query: queryField,
  k: kField.optional(),
  hops: hopsField.optional(),
  owner: scopeField,
  /** Scores with another profile than the store's default (comparison, conformance): built in or saved. */
  profile: profileField.optional(),
  /** Ranks superseded memories (conflict resolutions) as any other, marked, whatever the profile says. */
  include_superseded: z.boolean().optional(),
});

/** The derived index being built for recall right now (core/api/handlers/shared/index-builds.ts). */
export interface IndexBuildState {
  /** null: no index is being built. */
  building: {
    /** Its name in the index sidecar (`recall.mnemo.bm25.porter`, …). */
    index: string;
    /** What to call it ("keyword index"). */
    label: string;
    /** Live memories the build reads. */
    memories: number;
    /** Rows done of total. */
    done: number;
    total: number;
    /** Seconds left at the pace of the build's last seconds (model/throughput.ts); null until there is one. */
    eta_s: number | null;
  } | null;
}

export const recallContract = {
  'recall.indexBuild': method<IndexBuildState>()({
    description:
      'The index a recall is waiting for while it is built (a first open without current snapshots, or after a change too big to patch): its name, rows done of total. A UI polls it while recall.explain or recall.run is pending. With `at`, the build for that instant.',
    input: z.object({ at: atField.optional() }).optional().default({}),
  }),
  'recall.explain': method<ExplainResult>()({
    description:
      'Dry run of the recall pipeline: ranked rows with every term and the spread paths into each. Writes nothing. With `at` (epoch seconds), ranks the store as it was then, at that instant\'s clock.',
    input: recallInput.extend({ at: atField.optional() }),
  }),
  'recall.run': method<RecallResult>()({
    description: 'Deliberate recall: ranks, then logs one `recalled` access per returned memory (touching: strength +1, recency now).',
    input: recallInput,
    mutates: true,
  }),
  'recall.search': method<RecallResult>()({
    description: 'Search: recall without spread (hops 0), logged on the `searched` channel (touching).',
    input: recallInput.omit({ hops: true }),
    mutates: true,
  }),
  'recall.inject': method<RecallResult>()({
    description: 'Spontaneous injection: ranks without touching, then logs `injected` (strength, recency and base-level activation unchanged).',
    input: recallInput,
    mutates: true,
  }),
  'recall.whyNot': method<WhyNotResult>()({
    description: 'Why a memory is (not) in the top k: its rank among all candidates or the leg that missed it, its terms, its margin to the k-th result.',
    input: recallInput.extend({ target: z.string().min(1, 'target id is required').max(200) }),
  }),
  'recall.profile': method<RecallProfileInfo>()({
    description: 'The scoring profile in effect (or the one named) with every knob and how it differs from nooa v0.0.9.',
    input: z.object({ profile: profileField.optional() }).optional().default({}),
  }),
};
