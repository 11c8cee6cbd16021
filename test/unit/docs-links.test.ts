/**
 * The docs' links and the code paths they name stay true: every relative link in README.md, docs/
 * and the test READMEs reaches a file that exists (and, with a #fragment into a Markdown page, a
 * heading of that page, slugged as GitHub slugs it), and every repository path a page names in
 * backticks (`core/recall/pipeline.ts`, `test/store/pg-copy.test.ts`) is a file of the repository.
 * A page moved, a heading renamed or a file moved without its docs fails here, naming the page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs')), join(ROOT, 'test', 'README.md'), join(ROOT, 'test', 'fixtures', 'README.md')];

/** A page's text without its fenced code blocks (links and paths inside them are examples). */
function prose(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      out.push('');
      continue;
    }
    out.push(fenced ? '' : line);
  }
  return out.join('\n');
}

/** GitHub's heading anchors: lower case, punctuation and symbols dropped, spaces to hyphens, repeats numbered. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** The targets of a page's inline links and images, outside code. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[(?:[^\]\n]|\][^(\n])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** Repository paths a page names in backticks: a top-level folder of the repository, then a file with an extension. */
const TOP = ['bench', 'bin', 'build', 'cli', 'core', 'electron', 'renderer', 'scripts', 'server', 'support', 'test'];
const PATH = new RegExp(`^(?:${TOP.join('|')})/[\\w./-]*\\.(?:ts|tsx|js|mjs|cjs|py|json|md|sh|css|html)$`);
function namedPaths(markdown: string): string[] {
  return [...prose(markdown).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter((p) => PATH.test(p));
}

describe('the docs', () => {
  const slugsOf = new Map<string, Set<string>>();
  const slugs = (page: string) => {
    if (!slugsOf.has(page)) slugsOf.set(page, headingSlugs(readFileSync(page, 'utf8')));
    return slugsOf.get(page)!;
  };

  it('are found: the README, every page under docs/ and the test READMEs', () => {
    expect(PAGES.length).toBeGreaterThan(20);
    for (const page of PAGES) expect(existsSync(page), page).toBe(true);
  });

  it('link only to files that exist, and to headings those pages have', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const target of linkTargets(readFileSync(page, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, app:
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
        const where = `${relative(ROOT, page)} → ${target}`;
        if (!existsSync(file)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (fragment !== undefined && file.endsWith('.md') && statSync(file).isFile() && !slugs(file).has(decodeURIComponent(fragment))) {
          broken.push(`${where}: ${relative(ROOT, file)} has no heading #${fragment}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('name only repository files that exist', () => {
    const missing: string[] = [];
    for (const page of PAGES) {
      for (const path of namedPaths(readFileSync(page, 'utf8'))) {
        if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, page)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('heading anchors', () => {
  it('are slugged as GitHub slugs them', () => {
    const slugs = headingSlugs(
      [
        '# Copying a store: `mnemo copy`',
        '## 2026-12-03 15:44–15:58, at 0b28257: the apply at 100k',
        "### Index snapshots in this machine's cache",
        '## Profiles (`core/recall/profile.ts`)',
        '## Tests',
        '## Tests',
        '```',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...slugs]).toEqual([
      'copying-a-store-mnemo-copy',
      '2026-12-03-15441558-at-0b28257-the-apply-at-100k',
      'index-snapshots-in-this-machines-cache',
      'profiles-corerecallprofilets',
      'tests',
      'tests-1',
    ]);
  });
});
