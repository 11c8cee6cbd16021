/**
 * `mnemo bench locomo`: loads the data, runs the engine under a profile (and, for an ablation,
 * variants of it) beside the BM25 baseline, and writes the per-question rankings and the
 * summary. Recall is injected, so this module knows the dataset and the metrics but nothing of
 * how recall scores.
 */
import { basename } from 'node:path';
import { allTurns, loadLocomo, type Conversation } from './dataset.js';
import type { IngestOptions } from './ingest.js';
import { round, type Figures } from './metrics.js';
import { bm25Ranker, engineRanker, IngestedStores, type EngineRecall } from './rankers.js';
import { droppedEvidence, writeOutputs } from './report.js';
import { runRankers, TUNING_SAMPLES, type RankerRun } from './runner.js';
import type { ProfileName } from '../../core/store/port/port.js';

export interface Variant {
  /** Shown in the ablation table, e.g. "-bm25 leg". */
  name: string;
  change?: string;
  recall: EngineRecall;
  /** Ingestion options of this variant (variants with equal options share the stores). */
  ingest?: IngestOptions;
}

export interface LocomoBenchOptions {
  data: string;
  out: string;
  /** The profile's name (a built-in one, or a fitted profile's). */
  profile: string;
  /** The profile the ingested stores are created with (default: `profile`, which must then be built-in). */
  storeProfile?: ProfileName;
  ks: readonly number[];
  /** The engine's recall under the profile. */
  recall: EngineRecall;
  /** The profile's knobs as run (recorded in the summary). */
  config?: unknown;
  /** Extra variants ranked in the same run. */
  ablation?: readonly Variant[];
  ingest?: IngestOptions;
  onProgress?: (message: string) => void;
}

export interface AblationRow {
  variant: string;
  change: string;
  all: Figures;
  tuning: Figures;
  held_out: Figures;
}

export async function runLocomoBench(opts: LocomoBenchOptions) {
  const started = performance.now();
  const conversations: Conversation[] = loadLocomo(opts.data);
  const depth = Math.max(50, ...opts.ks);
  const stores = new Map<string, IngestedStores>();
  const storesFor = (extra: IngestOptions | undefined): IngestedStores => {
    const ingest = { ...opts.ingest, ...extra };
    const key = JSON.stringify(ingest);
    let s = stores.get(key);
    if (!s) stores.set(key, (s = new IngestedStores(opts.storeProfile ?? (opts.profile as ProfileName), ingest)));
    return s;
  };
  const variants: Variant[] = [{ name: opts.profile, change: 'the profile as configured', recall: opts.recall }, ...(opts.ablation ?? [])];
  const rankers = [...variants.map((v) => engineRanker(v.name, storesFor(v.ingest), v.recall)), bm25Ranker];
  let runs: RankerRun[];
  try {
    runs = await runRankers(conversations, rankers, { ks: opts.ks, depth, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  } finally {
    for (const s of stores.values()) s.close();
  }
  const main = runs[0]!;
  const bm25 = runs[runs.length - 1]!;
  const dropped = droppedEvidence(conversations);
  const ablation: AblationRow[] = runs.slice(0, -1).map((r, i) => ({
    variant: r.name,
    change: variants[i]!.change ?? '',
    all: r.summaries.all.overall,
    tuning: r.summaries.tuning.overall,
    held_out: r.summaries.held_out.overall,
  }));
  const ingestSeconds = [...stores.values()].reduce((s, st) => s + st.ingestSeconds, 0);
  const summary = {
    benchmark: 'locomo',
    data: basename(opts.data),
    profile: opts.profile,
    config: opts.config ?? null,
    ingest: { extract_entities: opts.ingest?.extractEntities ?? false },
    ks: [...opts.ks],
    depth,
    protocol: {
      tuning: conversations.filter((c) => TUNING_SAMPLES.has(c.sampleId)).map((c) => c.sampleId),
      held_out: conversations.filter((c) => !TUNING_SAMPLES.has(c.sampleId)).map((c) => c.sampleId),
      categories: 'categories 1-4 (multi-hop, temporal, open-domain, single-hop); overall = count-weighted over them',
      clock: 'each conversation is asked as of its last turn plus one minute, in dataset time (session stamps read as UTC)',
      unscored: 'questions whose evidence is empty after normalisation have no defined recall and are left out of every average',
    },
    dataset: {
      conversations: conversations.length,
      sessions: conversations.reduce((s, c) => s + c.sessions.length, 0),
      turns: conversations.reduce((s, c) => s + allTurns(c).length, 0),
      questions: main.summaries.all.questions,
      unscored_questions: main.summaries.all.unscored,
      evidence_dropped: dropped.length,
      dropped,
    },
    results: main.summaries,
    bm25: bm25.summaries,
    ablation: opts.ablation?.length ? ablation : undefined,
    timing: {
      total_s: round((performance.now() - started) / 1000, 2),
      ingest_s: round(ingestSeconds, 2),
      recall_s: round(runs.slice(0, -1).reduce((s, r) => s + r.rank_s, 0), 2),
      bm25_s: round(bm25.open_s + bm25.rank_s, 2),
    },
  };
  const files = writeOutputs(opts.out, main, bm25, summary);
  return { summary, files, runs };
}
