import { mkdirSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildStale, isStale, type BuildTarget } from '../../scripts/lib/stale-build.js';
import { tempDir } from '../../support/fixture.js';

const T = 1_780_000_000; // seconds; every mtime is set explicitly, never read from the clock

function touch(path: string, at: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'x');
  utimesSync(path, at, at);
}

const target: BuildTarget = { inputs: ['src', 'config.json'], marker: join('out', 'main.js'), command: () => ['build'] };

function project(): string {
  const root = tempDir('mnemo-stale-');
  touch(join(root, 'src', 'a.ts'), T);
  touch(join(root, 'src', 'deep', 'b.ts'), T);
  touch(join(root, 'config.json'), T);
  touch(join(root, 'out', 'main.js'), T + 10);
  return root;
}

describe('building only what is stale (npm start, test global setup)', () => {
  it('is fresh when the output is newer than every input', () => {
    expect(isStale(project(), target)).toBe(false);
  });

  it('is stale when the output is missing', () => {
    const root = tempDir('mnemo-stale-');
    touch(join(root, 'src', 'a.ts'), T);
    expect(isStale(root, target)).toBe(true);
  });

  it('is stale when a file deep in an input directory, or an input file, is newer than the output', () => {
    const root = project();
    touch(join(root, 'src', 'deep', 'b.ts'), T + 20);
    expect(isStale(root, target)).toBe(true);
    const other = project();
    touch(join(other, 'config.json'), T + 20);
    expect(isStale(other, target)).toBe(true);
  });

  it('is stale when a new source file appears after the build', () => {
    const root = project();
    touch(join(root, 'src', 'new.ts'), T + 11);
    expect(isStale(root, target)).toBe(true);
  });
});

describe('buildStale on the project targets', () => {
  function checkout(builtAt: Record<string, number>): string {
    const root = tempDir('mnemo-stale-');
    for (const f of ['core/a.ts', 'cli/main.ts', 'electron/main.ts', 'server/s.ts', 'tsconfig.node.json', 'tsconfig.base.json', 'package-lock.json', 'renderer/index.html', 'vite.config.ts', 'tsconfig.web.json']) touch(join(root, f), T);
    if (builtAt['node']) touch(join(root, 'dist', 'cli', 'main.js'), builtAt['node']);
    if (builtAt['renderer']) touch(join(root, 'dist', 'renderer', 'index.html'), builtAt['renderer']);
    return root;
  }

  it('builds nothing when nothing changed', () => {
    const calls: string[][] = [];
    const r = buildStale(checkout({ node: T + 5, renderer: T + 5 }), ['node', 'renderer'], { run: (a) => (calls.push(a), true) });
    expect(r).toEqual({ ok: true, built: [] });
    expect(calls).toEqual([]);
  });

  it('builds only the renderer when only a renderer file changed', () => {
    const root = checkout({ node: T + 5, renderer: T + 5 });
    touch(join(root, 'renderer', 'views', 'x.tsx'), T + 9);
    const r = buildStale(root, ['node', 'renderer'], { run: () => true });
    expect(r.built).toEqual(['renderer']);
  });

  it('builds both on a fresh checkout, and a failed build leaves its target stale for the next run', () => {
    const root = checkout({ node: T + 5 });
    touch(join(root, 'core', 'a.ts'), T + 9);
    const r = buildStale(root, ['node', 'renderer'], { run: () => false });
    expect(r).toEqual({ ok: false, built: [], failed: 'node' });
    expect(existsSync(join(root, 'dist', 'cli', 'main.js'))).toBe(false);
  });
});
