/** The CLI's lines while a big store's indexes are rebuilt (cli/index-progress.ts). */
import { describe, expect, it } from 'vitest';
import { indexBuildReporter } from '../../cli/index-progress.js';

describe('index build progress on stderr', () => {
  it('names the index and the memories as a big build starts, and its time when done', () => {
    const lines: string[] = [];
    const report = indexBuildReporter((l) => lines.push(l));
    report({ index: 'recall.mnemo.bm25.porter', phase: 'start', memories: 100_000 });
    report({ index: 'recall.mnemo.bm25.porter', phase: 'done', memories: 100_000, ms: 10_460 });
    expect(lines).toEqual([
      'Building the keyword index over 100,000 memories…',
      'Built the keyword index in 10.5 s',
    ]);
  });

  it('prints progress as a big build passes each quarter, once each', () => {
    const lines: string[] = [];
    const report = indexBuildReporter((l) => lines.push(l));
    report({ index: 'recall.corpus', phase: 'start', memories: 20_000 });
    for (let done = 4096; done < 20_000; done += 4096) report({ index: 'recall.corpus', phase: 'progress', memories: 20_000, done, total: 20_000 });
    report({ index: 'recall.corpus', phase: 'progress', memories: 20_000, done: 20_000, total: 20_000 });
    expect(lines).toEqual(['Building the recall corpus over 20,000 memories…', 'Building the recall corpus… 25 %', 'Building the recall corpus… 50 %', 'Building the recall corpus… 75 %']);
  });

  it('says nothing for a small store', () => {
    const lines: string[] = [];
    indexBuildReporter((l) => lines.push(l))({ index: 'embed.vectors', phase: 'start', memories: 500 });
    expect(lines).toEqual([]);
  });
});
