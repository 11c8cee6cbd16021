/**
 * Each guide in docs/ stays a guide (issue 38): at most about 400 lines, so that a reader gets what
 * it is, how to use it and what to expect, while dated measurements go to docs/benchmarks/. A guide
 * that grows past the bound is split (as erasing.md and long-writes.md were from security.md), or its
 * measurements move (as the belief layer's did to docs/benchmarks/beliefs.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = join(ROOT, 'docs');
/** At most 400 lines: a guide past it splits (as long-writes.md did from security.md) or moves its figures out. */
const MOST_LINES = 400;

function guides(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'benchmarks' ? [] : guides(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

/** Its lines, as `wc -l` counts them on a page that ends with a newline. */
function linesOf(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

describe('the guides in docs/', () => {
  it(`are at most ${MOST_LINES} lines each (docs/benchmarks/ holds the results pages)`, () => {
    const pages = guides(DOCS);
    expect(pages.length).toBeGreaterThan(15);
    const long = pages.map((p) => ({ page: relative(ROOT, p), lines: linesOf(readFileSync(p, 'utf8')) })).filter((p) => p.lines > MOST_LINES);
    expect(long).toEqual([]);
  });
});
