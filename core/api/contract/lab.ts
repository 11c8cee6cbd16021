/**
 * The Scorer lab: a query set ranked under two profiles side by side, and one knob swept. Reads
 * only. The limits keep one call short (queries × profiles × explain); the workbench sends a long
 * run as several calls, which is where its progress and cancel come from. The fit is the one long
 * call: `lab.fit` answers when the fit ends, and `lab.fitProgress` / `lab.fitCancel` are answered
 * while it runs (it yields between evaluations).
 */
import { z } from 'zod';
import { method } from '../define.js';
import { profileField, queryField, scopeField } from './shared/fields.js';
import { profileNameSchema } from '../../recall/profile-schema.js';
import { TUNE_METRICS } from '../../tune/metrics.js';
import type { LabFitProgress, LabFitResult } from '../../tune/lab-fit.js';
import { LABEL_SOURCE_NAMES, SWEEP_KNOB_PATHS, type LabelSourceName, type SweepKnob } from '../../recall/lab/names.js';
import type { LabCompareResult, LabMetrics, LabMove, LabQuery, LabQueryResult, LabRow, LabSweepPoint, LabSweepResult, LoggedQueryView, RankMove } from '../../recall/lab/types.js';
export type { SweepKnob, LabFitProgress, LabFitResult, LabelSourceName };
export type { LabCompareResult, LabMetrics, LabMove, LabQuery, LabQueryResult, LabRow, LabSweepPoint, LabSweepResult, LoggedQueryView, RankMove };

export const MAX_LAB_QUERIES = 50;
export const MAX_LAB_K = 50;
export const MAX_SWEEP_POINTS = 21;
/** A fit ranks every query once per evaluation: these bound one fit to minutes on a large store. */
export const MAX_FIT_QUERIES = 200;
export const MAX_FIT_EVALUATIONS = 500;

const labQuery = z.strictObject({ query: queryField.min(1, 'a lab query is not empty').max(2_000), owner: scopeField.transform((o) => o ?? null) });
const labQueries = z.array(labQuery).min(1, 'give at least one query').max(MAX_LAB_QUERIES, `at most ${MAX_LAB_QUERIES} queries a call; send more in several calls`);
const fitQueries = z.array(labQuery).min(1, 'give at least one query').max(MAX_FIT_QUERIES, `a fit takes at most ${MAX_FIT_QUERIES} queries`);
const labK = z.number().int().min(1).max(MAX_LAB_K, `k is at most ${MAX_LAB_K} in the lab`).optional().default(10);
/** Absent: used-later where the log has sessions it labels, else logged-top-k (the answer names the one used). */
const labelsField = z.enum(LABEL_SOURCE_NAMES).optional();

export const labContract = {
  'lab.knobs': method<{ knobs: SweepKnob[]; label_sources: string[] }>()({
    description: 'What the lab can sweep (each numeric knob by its path in a profile, with a default range) and the label sources it can score against.',
    input: z.object({}).optional().default({}),
  }),
  'lab.queries': method<LoggedQueryView[]>()({
    description: "The store's logged recalls as a query set: distinct recall and search queries, newest first, with the reader, the scope they ran under, how many accesses they logged and when.",
    input: z.object({ limit: z.number().int().min(1).max(1000).optional().default(200) }).optional().default({ limit: 200 }),
  }),
  'lab.compare': method<LabCompareResult>()({
    description:
      'Rank each query under profiles a and b (as recall.explain does): both top k side by side, each memory\'s rank move and the term that moved its score most (the term deltas add up to the score delta), per-query metrics against the labels, and the rank overlap.',
    input: z.object({ queries: labQueries, a: profileField, b: profileField, k: labK, labels: labelsField }),
  }),
  'lab.sweep': method<LabSweepResult>()({
    description: 'Sweep one numeric knob of a profile: at each value, the mean metrics over the queries and the overlap with the profile\'s own ranking; current is the profile\'s value.',
    input: z.object({
      queries: labQueries,
      profile: profileField,
      knob: z.enum(SWEEP_KNOB_PATHS),
      values: z.array(z.number()).min(1).max(MAX_SWEEP_POINTS, `at most ${MAX_SWEEP_POINTS} values a sweep`),
      k: labK,
      labels: labelsField,
    }),
  }),
  'lab.fit': method<LabFitResult>()({
    description:
      "Fit the numeric knobs of profile `from` to the queries, labelled by the label source (mnemo tune's search; nothing is written). Answers when the fit ends: the fitted profile's train and held-out metrics beside the start's, the objective after each evaluation, an ablation, the fitted config (for profiles.save) and its diff against `from`. One fit at a time per store; lab.fitProgress and lab.fitCancel follow and stop it.",
    input: z.strictObject({
      queries: fitQueries,
      from: profileField,
      name: profileNameSchema,
      labels: labelsField,
      k: labK,
      metric: z.enum(TUNE_METRICS).optional().default('recall'),
      seed: z.number().int().min(0).max(2 ** 32 - 1).optional().default(1),
      max_evaluations: z.number().int().min(1).max(MAX_FIT_EVALUATIONS, `at most ${MAX_FIT_EVALUATIONS} evaluations in the lab (mnemo tune takes more)`).optional().default(60),
      held_out_share: z.number().min(0).max(0.5, 'hold out at most half the labelled queries').optional().default(0.3),
      knobs: z.array(z.string().min(1).max(100)).min(1).max(40).optional(),
    }),
  }),
  'lab.fitProgress': method<LabFitProgress>()({
    description: 'Where the running lab.fit is: evaluation n of N, the best objective so far and its trace (one value per evaluation).',
    input: z.object({}).optional().default({}),
  }),
  'lab.fitCancel': method<{ cancelled: boolean }>()({
    description: 'Stop the running lab.fit before its next evaluation (it then fails with a conflict, details.cancelled: true); false when no fit runs.',
    input: z.object({}).optional().default({}),
  }),
};
