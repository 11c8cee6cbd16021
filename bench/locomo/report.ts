/**
 * Writes a run's outputs: `retrieved.jsonl` (one line per question of the profile under test:
 * sample_id, qa_index, category, normalised evidence, top dia_ids), `retrieved-bm25.jsonl` (the
 * same for the baseline) and `summary.json` (every figure, for the profile and for BM25).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MnemoError } from '../../core/errors.js';
import type { Conversation } from './dataset.js';
import type { QuestionResult } from './metrics.js';
import type { RankerRun } from './runner.js';

export interface DroppedEvidence {
  sample_id: string;
  qa_index: number;
  piece: string;
}

export function droppedEvidence(conversations: readonly Conversation[]): DroppedEvidence[] {
  return conversations.flatMap((c) =>
    c.questions.flatMap((q) => q.dropped.map((piece) => ({ sample_id: c.sampleId, qa_index: q.qaIndex, piece }))),
  );
}

export function jsonl(results: readonly QuestionResult[]): string {
  return results
    .map((r) => JSON.stringify({ sample_id: r.sampleId, qa_index: r.qaIndex, category: r.category, evidence: r.evidence, retrieved: r.retrieved }))
    .join('\n')
    .concat(results.length ? '\n' : '');
}

export function writeOutputs(dir: string, main: RankerRun, baseline: RankerRun, summary: unknown): string[] {
  try {
    mkdirSync(dir, { recursive: true });
    const files = [join(dir, 'retrieved.jsonl'), join(dir, 'retrieved-bm25.jsonl'), join(dir, 'summary.json')];
    writeFileSync(files[0]!, jsonl(main.results));
    writeFileSync(files[1]!, jsonl(baseline.results));
    writeFileSync(files[2]!, `${JSON.stringify(summary, null, 2)}\n`);
    return files;
  } catch (err) {
    throw new MnemoError('bad_input', `cannot write the results to ${dir}: ${(err as Error).message}; pass --out <a writable directory>`, { dir });
  }
}
