import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKs } from '../../cli/commands/bench.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';
import { writeSyntheticLocomo } from '../helpers/locomo.js';

describe('mnemo bench locomo', () => {
  const data = writeSyntheticLocomo();

  it('writes retrieved.jsonl and summary.json with the profile and BM25 from the same run', async () => {
    const out = join(tempDir(), 'run');
    const res = await runCli(['bench', 'locomo', '--data', data, '--out', out, '--json']);
    expect(res.code).toBe(0);
    const lines = readFileSync(join(out, 'retrieved.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // Categories 1–4 only: 4 + 2 questions; category 5 is not asked.
    expect(lines.map((l) => [l.sample_id, l.qa_index, l.category])).toEqual([
      ['conv-26', 0, 4],
      ['conv-26', 1, 2],
      ['conv-26', 2, 1],
      ['conv-26', 3, 3],
      ['conv-44', 0, 4],
      ['conv-44', 1, 1],
    ]);
    expect(lines[2].evidence).toEqual(['D1:1', 'D1:3']);
    // Every turn of the conversation is ranked (fewer than 50 here), never a session memory.
    expect(lines[0].retrieved).toHaveLength(7);
    expect(lines[0].retrieved.every((id: string) => /^D\d+:\d+$/.test(id))).toBe(true);
    expect(lines[0].retrieved[0]).toBe('D1:1');
    expect(existsSync(join(out, 'retrieved-bm25.jsonl'))).toBe(true);

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.profile).toBe('mnemo');
    expect(summary.protocol.tuning).toEqual(['conv-26']);
    expect(summary.protocol.held_out).toEqual(['conv-44']);
    expect(summary.dataset).toMatchObject({ conversations: 2, questions: 6, unscored_questions: 1, evidence_dropped: 1, dropped: [{ sample_id: 'conv-44', qa_index: 0, piece: 'D9:9' }] });
    for (const run of [summary.results, summary.bm25]) {
      expect(Object.keys(run)).toEqual(['all', 'tuning', 'held_out']);
      expect(run.all.overall.n).toBe(5);
      expect(Object.keys(run.all.overall.recall)).toEqual(['R@1', 'R@5', 'R@10', 'R@20', 'R@50']);
      expect(run.all.overall).toHaveProperty('recall_all_at_10');
      expect(run.all.overall).toHaveProperty('session_recall_at_10');
      expect(run.all.overall.recall['R@50']).toBe(1);
    }
    expect(summary.results.all.by_category['single-hop'].n).toBe(2);
    expect(summary.config.features.bm25).not.toBeNull();
    expect(res.json().results.all.overall.n).toBe(5);
  });

  it('runs the nooa-0.0.9 profile and an ablation in one run', async () => {
    const out = join(tempDir(), 'abl');
    const res = await runCli(['bench', 'locomo', '--data', data, '--out', out, '--profile', 'nooa-0.0.9', '--k', '1,5', '--ablation', '--json']);
    expect(res.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.ks).toEqual([1, 5, 10]);
    expect(summary.config.features.bm25).toBeNull();
    // nooa has no mnemo component to switch off: only its own knobs vary, and it is not repeated as a reference row.
    expect(summary.ablation.map((a: { variant: string }) => a.variant)).toEqual(['nooa-0.0.9', '-graph spread', '-substring leg', '-dense relevance', '+extracted names']);
  });

  it('prints a table without --json', async () => {
    const res = await runCli(['bench', 'locomo', '--data', data, '--out', join(tempDir(), 'txt')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/split\s+retriever\s+R@1/);
    expect(res.stdout).toMatch(/held_out\s+bm25/);
  });

  it('refuses bad usage with exit 2 and a message naming the fix', async () => {
    const cases: [string[], RegExp][] = [
      [['bench'], /missing <benchmark>/],
      [['bench', 'longmemeval', '--data', data, '--out', 'x'], /unknown benchmark "longmemeval"; available: locomo/],
      [['bench', 'locomo', '--out', 'x'], /missing --data/],
      [['bench', 'locomo', '--data', data], /missing --out/],
      [['bench', 'locomo', '--data', data, '--out', 'x', '--profile', 'best'], /--profile must be one of mnemo, nooa-0.0.9/],
      [['bench', 'locomo', '--data', data, '--out', 'x', '--k', '5,zero'], /--k takes a comma-separated list/],
      [['bench', 'locomo', '--data', join(tempDir(), 'none.json'), '--out', 'x'], /cannot read the LoCoMo data/],
    ];
    for (const [argv, message] of cases) {
      const res = await runCli(argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });

  it('parses --k into a sorted, distinct list that always holds 10', () => {
    expect(parseKs(undefined)).toEqual([1, 5, 10, 20, 50]);
    expect(parseKs('20, 1,1')).toEqual([1, 10, 20]);
    expect(() => parseKs('0')).toThrow(/within \[1, 1000\]/);
  });
});
