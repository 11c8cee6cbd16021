/**
 * The belief layer's methods: what the CLI and the workbench's Beliefs view call. Inputs are zod
 * schemas; outputs are plain JSON types (the belief layer's own, or API views declared here) that
 * the renderer imports as types.
 */
import { z } from 'zod';
import { BELIEF_PROFILES, beliefConfigOverrides, type BeliefConfig } from '../../beliefs/config.js';
import { nameBytesProblem, observationSchema } from '../../beliefs/observation.js';
import { beliefQuerySchema } from '../../beliefs/answer.js';
import { method } from '../define.js';
import type { BeliefAnswer as BeliefAnswerView } from '../../beliefs/answer.js';
import type { AliasPlan as AliasPlanView, AliasProposal as AliasProposalView } from '../../beliefs/identity.js';
import type { IngestResult as BeliefIngestResult } from '../../beliefs/model.js';
import type { BeliefView, ValueP } from '../../beliefs/read.js';
import type { CalibrationFigures, DiscriminationFigures, FittedCalibration, StoredSignals } from '../../beliefs/calibration-types.js';
import type { RetrievalResult as RetrievalView } from '../../beliefs/retrieval.js';
import type { AliasRow as AliasRowView } from '../../store/port/port.js';
// The views are the belief layer's own types, under the names the workbench knows them by.
export type { AliasPlanView, AliasProposalView, AliasRowView, BeliefAnswerView, BeliefIngestResult, BeliefView, CalibrationFigures, DiscriminationFigures, FittedCalibration, RetrievalView, StoredSignals, ValueP };

const finite = (name: string) => z.number().refine(Number.isFinite, `${name} must be a finite number (epoch seconds)`);
const name = (what: string) =>
  z
    .string()
    .min(1, `${what} is required`)
    .max(1000)
    .superRefine((s, ctx) => {
      const problem = nameBytesProblem(what, s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
const readMode = z.enum(['as-of', 'hindsight']).optional().default('as-of');

export interface DeltaView {
  id: number;
  entity: string;
  observed_entity: string;
  attribute: string;
  value: string;
  t: number;
  reliability: number | null;
  epsilon: number;
  surprise: number;
  prior: ValueP[];
  posterior: ValueP[];
  mode_before: string | null;
  mode_after: string | null;
  /** True when this delta changed the most probable value. */
  moved: boolean;
  evidence: string;
  source: string;
  memory_id: string | null;
  memory_exists: boolean;
  /** The memory's head (title or content), to show instead of its id; null when it is gone. */
  memory_head: string | null;
  observation_id: string | null;
}

export interface BeliefConfigView {
  config: BeliefConfig;
  lambda_per_second: number;
  /** False until the first observation records the constants in the store. */
  recorded: boolean;
  /** The fitted calibration map and its dev figures per read mode; null where none applies (an overridden profile). */
  calibration: { 'as-of': FittedCalibration | null; hindsight: FittedCalibration | null };
  /** The signals model that gives the headline p (signals-fitted.ts), with its dev figures; null where none applies. */
  signals: { 'as-of': StoredSignals | null; hindsight: StoredSignals | null };
}

export interface BeliefEntitySummary {
  entity: string;
  aliases: string[];
  dimensions: number;
  deltas: number;
  t_last: number;
}

export const beliefsContract = {
  'beliefs.config': method<BeliefConfigView>()({
    description: "The belief constants of the current store (the paper profile until the first observation records them), and the calibration and signals model fitted for them.",
    input: z.object({}).optional().default({}),
  }),
  'beliefs.configure': method<BeliefConfigView>()({
    description: 'Choose the belief profile (paper | nous-code) and override constants; only while no observation is logged.',
    input: z.object({ profile: z.enum(BELIEF_PROFILES), overrides: beliefConfigOverrides.optional() }),
    mutates: true,
  }),
  'beliefs.observe': method<DeltaView>()({
    description: 'Apply one observation (entity, attribute, value, t, reliability, evidence, source, memory_id); returns its delta.',
    input: z.object({ observation: observationSchema }),
    mutates: true,
  }),
  'beliefs.ingest': method<BeliefIngestResult>()({
    description: 'Apply many observations (JSONL text or a list) in one transaction; the first bad line fails all, naming its line.',
    input: z
      .object({ jsonl: z.string().max(200_000_000).optional(), observations: z.array(z.unknown()).max(1_000_000).optional() })
      .refine((i) => (i.jsonl === undefined) !== (i.observations === undefined), 'give exactly one of jsonl or observations'),
    mutates: true,
  }),
  'beliefs.entities': method<{ total: number; entities: BeliefEntitySummary[] }>()({
    description: 'Entities with beliefs (canonical names, with their merged aliases), filtered by a name substring.',
    input: z.object({
      search: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(5000).optional().default(200),
      offset: z.number().int().min(0).optional().default(0),
    }),
  }),
  'beliefs.entity': method<{ entity: string; aliases: string[]; at: number; mode: 'as-of' | 'hindsight'; dimensions: BeliefView[] }>()({
    description: "Every dimension of an entity as of T: distribution, mode, entropy, observed values.",
    input: z.object({ entity: name('entity'), at: finite('at').optional(), mode: readMode }),
  }),
  'beliefs.get': method<{ belief: BeliefView; deltas: DeltaView[] }>()({
    description: 'One dimension as of T (time travel, or hindsight) with its delta history up to T.',
    input: z.object({
      entity: name('entity'),
      attribute: name('attribute'),
      at: finite('at').optional(),
      mode: readMode,
      deltas_limit: z.number().int().min(0).max(10_000).optional().default(200),
    }),
  }),
  'beliefs.deltas': method<{ entity: string; deltas: DeltaView[] }>()({
    description: "An entity's delta timeline, newest first (surprise, prior → posterior, memory links).",
    input: z.object({
      entity: name('entity'),
      attribute: z.string().min(1).max(1000).optional(),
      at: finite('at').optional(),
      limit: z.number().int().min(1).max(5000).optional().default(200),
      offset: z.number().int().min(0).optional().default(0),
    }),
  }),
  'beliefs.forMemory': method<{ memory_id: string; deltas: DeltaView[]; dimensions: { entity: string; attribute: string }[] }>()({
    description: 'The beliefs a memory moved: every delta whose evidence came from it.',
    input: z.object({ memory_id: name('memory_id') }),
  }),
  'beliefs.aliases.plan': method<AliasPlanView>()({
    description: 'Propose alias merges by symmetrised KL over shared dimensions (Eq. 6); writes nothing.',
    input: z.object({ at: finite('at').optional() }).optional().default({}),
  }),
  'beliefs.aliases.apply': method<{ change_id: number | null; merged: { alias: string; canonical: string }[] }>()({
    description: 'Apply alias merges (from a plan) as one undoable change; refused if the beliefs changed since the plan.',
    input: z.object({
      merges: z
        .array(z.object({ alias: name('alias'), canonical: name('canonical'), divergence: z.number().nullable().optional(), shared: z.number().int().nullable().optional() }))
        .min(1, 'give at least one merge')
        .max(10_000),
      basis: z.string().optional(),
    }),
    mutates: true,
  }),
  'beliefs.aliases.reject': method<{ change_id: number | null }>()({
    description: 'Reject an alias pair so it is not proposed again (undoable).',
    input: z.object({ a: name('a'), b: name('b') }),
    mutates: true,
  }),
  'beliefs.aliases.list': method<{ aliases: AliasRowView[]; rejections: { a: string; b: string; rejected_at: number }[] }>()({
    description: 'Merged aliases and rejected pairs.',
    input: z.object({}).optional().default({}),
  }),
  'beliefs.answer': method<{ answers: BeliefAnswerView[] }>()({
    description: 'Answer belief queries (current | values | aliases) in the belief-stream scorer format.',
    input: z.object({ queries: z.array(beliefQuerySchema).max(1_000_000), mode: readMode }),
  }),
  'beliefs.retrieve': method<RetrievalView>()({
    description: 'Fact lines for a question: BFS over relationship edges (≤ hops) plus BM25 over delta evidence.',
    input: z.object({
      query: z.string().min(1, 'query is required').max(10_000),
      at: finite('at').optional(),
      hops: z.number().int().min(0).max(4).optional(),
      top_k: z.number().int().min(1).max(200).optional(),
    }),
  }),
};
