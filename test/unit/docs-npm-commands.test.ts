/**
 * The npm commands the docs tell a reader to type exist (issue 38): every `npm run <script>` in
 * README.md, docs/ and the test READMEs is a script of package.json, and every
 * `npm run bench -- <name>` is a benchmark (bench/<name>.ts). The `mnemo` commands of the README's
 * table are checked against the CLI itself in test/cli/readme-commands.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs')), join(ROOT, 'test', 'README.md')];
const SCRIPTS = new Set(Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts));

/** The npm commands a text names: each `npm run <script>`, and the benchmark after `npm run bench -- `. */
export function npmCommands(text: string): { script: string; bench: string | null }[] {
  return [...text.matchAll(/\bnpm run ([a-z][a-z0-9:_-]*)(?: -- ([a-z<][a-z0-9>-]*))?/g)].map((m) => ({
    script: m[1]!,
    bench: m[1] === 'bench' && m[2] && !m[2].startsWith('<') ? m[2] : null,
  }));
}

/** What a page names that does not exist, one line each. */
function missing(page: string, text: string): string[] {
  const out: string[] = [];
  for (const c of npmCommands(text)) {
    if (!SCRIPTS.has(c.script)) out.push(`${page}: npm run ${c.script} (no such script in package.json)`);
    if (c.bench && !existsSync(join(ROOT, 'bench', `${c.bench}.ts`))) out.push(`${page}: npm run bench -- ${c.bench} (no bench/${c.bench}.ts)`);
  }
  return out;
}

describe('the npm commands the docs name', () => {
  it('are read from the pages (the README names test:unit and a benchmark)', () => {
    const readme = npmCommands(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme.map((c) => c.script)).toContain('test:unit');
    const all = PAGES.flatMap((p) => npmCommands(readFileSync(p, 'utf8')));
    expect(all.filter((c) => c.bench !== null).length).toBeGreaterThan(20);
  });

  it('are scripts of package.json, and benchmarks of bench/', () => {
    const problems = PAGES.flatMap((p) => missing(relative(ROOT, p), readFileSync(p, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('a script or a benchmark that does not exist is named (so the check above can fail)', () => {
    const text = 'Run `npm run test:fast`, then `npm run bench -- no-such-bench --json` and `npm run bench -- <name>`.';
    expect(missing('page.md', text)).toEqual(['page.md: npm run test:fast (no such script in package.json)', 'page.md: npm run bench -- no-such-bench (no bench/no-such-bench.ts)']);
  });
});
