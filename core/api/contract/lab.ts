/**
 * The Scorer lab: a query set ranked under two profiles side by side, and one knob swept. Reads
 * only. The limits keep one call short (queries × profiles × explain); the workbench sends a long
 * run as several calls, which is where its progress and cancel come from.
 */
import { z } from 'zod';
import { method } from '../define.js';
import { profileField, queryField, scopeField } from './shared/fields.js';
import { LABEL_SOURCE_NAMES, SWEEP_KNOB_PATHS, type SweepKnob } from '../../recall/lab/names.js';
import type { LabCompareResult, LabMetrics, LabMove, LabQuery, LabQueryResult, LabRow, LabSweepPoint, LabSweepResult, LoggedQueryView, RankMove } from '../../recall/lab/types.js';
export type { SweepKnob };
export type { LabCompareResult, LabMetrics, LabMove, LabQuery, LabQueryResult, LabRow, LabSweepPoint, LabSweepResult, LoggedQueryView, RankMove };

export const MAX_LAB_QUERIES = 50;
export const MAX_LAB_K = 50;
export const MAX_SWEEP_POINTS = 21;

const labQuery = z.strictObject({ query: queryField.min(1, 'a lab query is not empty').max(2_000), owner: scopeField.transform((o) => o ?? null) });
const labQueries = z.array(labQuery).min(1, 'give at least one query').max(MAX_LAB_QUERIES, `at most ${MAX_LAB_QUERIES} queries a call; send more in several calls`);
const labK = z.number().int().min(1).max(MAX_LAB_K, `k is at most ${MAX_LAB_K} in the lab`).optional().default(10);
const labelsField = z.enum(LABEL_SOURCE_NAMES).optional().default('logged-top-k');

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
};
