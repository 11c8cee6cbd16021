/**
 * The LoCoMo retrieval run: for every conversation, every ranker under test ranks the turns for
 * each question of categories 1–4; the results are scored per split (all, tuning five, held-out
 * five). Rankers are independent of each other, so the BM25 baseline is always recomputed in the
 * same run as the profile it is compared with.
 */
import type { Category, Conversation } from './dataset.js';
import { summarize, type QuestionResult, type Summary } from './metrics.js';

/** The protocol: tune only on these five conversations; the others are held out. */
export const TUNING_SAMPLES: ReadonlySet<string> = new Set(['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43']);

export const SCORED_CATEGORIES: ReadonlySet<Category> = new Set<Category>([1, 2, 3, 4]);

export interface ConversationRanker {
  /** Ranked dia_ids for a question, best first, at most `k`. */
  rank(question: string, k: number): string[] | Promise<string[]>;
  dispose?(): void;
}

export interface Ranker {
  name: string;
  /** Prepares (indexes, ingests) one conversation. */
  open(conv: Conversation): ConversationRanker | Promise<ConversationRanker>;
}

export interface SplitSummaries {
  all: Summary;
  tuning: Summary;
  held_out: Summary;
}

export interface RankerRun {
  name: string;
  results: QuestionResult[];
  summaries: SplitSummaries;
  /** Wall time spent preparing and ranking, seconds. */
  open_s: number;
  rank_s: number;
}

export interface RunOptions {
  ks: readonly number[];
  /** How many dia_ids to keep per question (the largest k, at least 50). */
  depth: number;
  onProgress?: (message: string) => void;
}

export function splitSummaries(results: readonly QuestionResult[], ks: readonly number[]): SplitSummaries {
  return {
    all: summarize(results, ks),
    tuning: summarize(
      results.filter((r) => TUNING_SAMPLES.has(r.sampleId)),
      ks,
    ),
    held_out: summarize(
      results.filter((r) => !TUNING_SAMPLES.has(r.sampleId)),
      ks,
    ),
  };
}

export async function runRankers(conversations: readonly Conversation[], rankers: readonly Ranker[], opts: RunOptions): Promise<RankerRun[]> {
  const runs = rankers.map((r) => ({ name: r.name, results: [] as QuestionResult[], open_s: 0, rank_s: 0 }));
  for (const conv of conversations) {
    const questions = conv.questions.filter((q) => SCORED_CATEGORIES.has(q.category));
    for (const [i, ranker] of rankers.entries()) {
      const run = runs[i]!;
      let t = performance.now();
      const cr = await ranker.open(conv);
      run.open_s += (performance.now() - t) / 1000;
      t = performance.now();
      try {
        for (const q of questions) {
          const retrieved = (await cr.rank(q.question, opts.depth)).slice(0, opts.depth);
          run.results.push({ sampleId: conv.sampleId, qaIndex: q.qaIndex, category: q.category, evidence: q.evidence, retrieved });
        }
      } finally {
        cr.dispose?.();
      }
      run.rank_s += (performance.now() - t) / 1000;
    }
    opts.onProgress?.(`${conv.sampleId}: ${questions.length} questions`);
  }
  return runs.map((r) => ({ ...r, summaries: splitSummaries(r.results, opts.ks) }));
}
