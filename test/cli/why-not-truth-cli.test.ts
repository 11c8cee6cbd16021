/**
 * Issue 41 item 1: why-not's sentences come from the same facts as its numbers. On the demo store,
 * `mnemo explain --target` said "spread 0.7291 (source sparse)" and then "spread: no edge carried
 * activation" (the spread came through part_of siblings, which the sentence never looked at) and
 * "keyword … ranks #130; only the first 50 are kept" (the BM25 leg had found it; the sentence read
 * only the substring leg). Every row here is checked: a leg its source names found it, the spread
 * sentence names the spread term the score holds, and the parts of that term add up to it.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExplainRow, WhyNotResult } from '../../core/recall/types.js';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const NOW = '1780000000';
const QUERY = 'rotate credentials uploads';
let db: string;

beforeAll(async () => {
  db = join(tempDir('mnemo-whynot-'), 'demo.sqlite');
  const made = await runCli(['demo', db, '--now', NOW]);
  expect(made.code, made.stderr).toBe(0);
}, 120_000);

async function whyNot(target: string, profile: string): Promise<WhyNotResult> {
  const r = await runCli(['explain', db, QUERY, '--target', target, '--profile', profile, '--now', NOW, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json() as WhyNotResult;
}

function checkAgrees(w: WhyNotResult): void {
  const label = `${w.target.slice(0, 8)} (${w.status}, source ${w.terms.source})`;
  const keywordHit = w.legs.sparse.hit || (w.legs.bm25?.hit ?? false);
  if (w.terms.source === 'dense' || w.terms.source === 'both') expect(w.legs.dense.hit, label).toBe(true);
  if (w.terms.source === 'sparse' || w.terms.source === 'both') expect(keywordHit, label).toBe(true);
  if (w.terms.source === 'sparse') expect(w.legs.dense.hit, label).toBe(false);
  const spreadTerm = w.contributions['spread'] ?? 0;
  expect(w.legs.spread.received, label).toBeCloseTo(spreadTerm, 4);
  expect(w.legs.spread.edges + w.legs.spread.siblings + w.legs.spread.parent, label).toBeCloseTo(w.legs.spread.received, 9);
  const spreadLine = w.explanation.find((s) => s.startsWith('spread: '))!;
  if (spreadTerm > 0) {
    expect(spreadLine, label).toMatch(/^spread: received /);
    expect(Number(/received ([\d.]+)/.exec(spreadLine)![1]), label).toBeCloseTo(spreadTerm, 3);
  } else expect(spreadLine, label).not.toMatch(/received/);
  // The score's terms add up to it.
  const sum = Object.values(w.contributions).reduce((a, b) => a + b, 0);
  expect(sum, label).toBeCloseTo(w.terms.score, 3);
  for (const s of w.explanation) expect(s, label).not.toMatch(/never became|is never/);
}

describe('why-not agrees with its own numbers (demo store)', () => {
  for (const profile of ['mnemo', 'nooa-0.0.9']) {
    it(`every ranked row of the top 40 and the rows past the cut, under ${profile}`, async () => {
      const r = await runCli(['explain', db, QUERY, '--k', '60', '--profile', profile, '--now', NOW, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const rows = r.json() as ExplainRow[];
      expect(rows.length).toBe(60);
      const withSpread = rows.filter((x) => (x.terms['spread'] ?? 0) > 0);
      expect(withSpread.length).toBeGreaterThan(0);
      for (const row of rows.filter((_, i) => i % 3 === 0 || (row_spread(rows[i]!) > 0 && i < 40))) {
        const w = await whyNot(row.id, profile);
        expect(w.rank).toBe(row.rank);
        expect(w.terms.score).toBeCloseTo(row.score, 4);
        checkAgrees(w);
      }
    }, 120_000);
  }

  it("the issue's example: found by BM25 and fed by part_of siblings, and the sentences say so", async () => {
    const w = await whyNot('a92cf89094fe', 'mnemo');
    checkAgrees(w);
    expect(w.terms.source).toBe('sparse');
    expect(w.legs.bm25?.hit).toBe(true);
    expect(w.explanation).toContainEqual(expect.stringMatching(/^keyword \(BM25\): found at #\d+ of its \d+ best matches/));
    expect(w.legs.spread.siblings).toBeGreaterThan(0);
    expect(w.explanation).toContainEqual(expect.stringMatching(/^spread: received [\d.]+: [\d.]+ from its part_of siblings/));
  });
});

function row_spread(r: ExplainRow): number {
  return r.terms['spread'] ?? 0;
}
