/**
 * docs/architecture.md against the code: the layer table is the one the lint rules enforce
 * (.dependency-cruiser.cjs's CORE_LAYERS), every room of core/ is in it, and every file the request
 * path names exists. What could go wrong: a room added to the lint rules and not to the page (or the
 * other way round), a layer moved in one place only, a drawing that names files long gone.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

/** CORE_LAYERS as the lint config spells it: an array literal of string arrays. */
function lintLayers(): string[][] {
  const config = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
  const m = /const CORE_LAYERS = (\[[\s\S]*?\n\]);/.exec(config);
  if (!m) throw new Error('.dependency-cruiser.cjs no longer declares CORE_LAYERS as an array literal');
  return JSON.parse(m[1]!.replace(/'/g, '"').replace(/,(\s*\])/g, '$1')) as string[][];
}

/** The layer table's rows: layer number and the backquoted rooms of its second column. */
function docLayers(): string[][] {
  const rows = doc.split('\n').filter((l) => /^\| \d+ \| /.test(l));
  return rows.map((row, i) => {
    const [, level, rooms] = /^\| (\d+) \| ([^|]+) \|/.exec(row)!;
    expect(Number(level), `row ${i} of the layer table`).toBe(i);
    return [...rooms!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
  });
}

describe('docs/architecture.md', () => {
  it('has the layer table the lint rules enforce, room for room', () => {
    expect(docLayers()).toEqual(lintLayers());
  });

  it('names every folder and top-level module of core/ in its layer table', () => {
    const rooms = readdirSync(join(root, 'core')).filter((name) => statSync(join(root, 'core', name)).isDirectory() || name.endsWith('.ts'));
    expect(rooms.filter((r) => !docLayers().flat().includes(r))).toEqual([]);
  });

  it('draws a request path whose every file exists', () => {
    const section = doc.slice(doc.indexOf('## The path of a request'), doc.indexOf('## The store port'));
    const drawing = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const files = [...drawing.matchAll(/\b((?:renderer|electron|server|cli|core)\/[\w/.<>-]+\.c?tsx?)\b/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(8);
    const missing = files.filter((f) => !f.includes('<') && !existsSync(join(root, f)));
    expect(missing).toEqual([]);
    // The templated ones: a handler and a contract file per method prefix, as api-layout.test.ts asserts.
    expect(files.filter((f) => f.includes('<'))).toEqual(['core/api/handlers/<prefix>.ts', 'core/api/contract/<prefix>.ts']);
  });
});
