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

/** A layer table as the lint config spells it (CORE_LAYERS, STORE_LAYERS): an array literal of string arrays. */
function lintLayers(name = 'CORE_LAYERS'): string[][] {
  const config = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
  const m = new RegExp(`const ${name} = (\\[[\\s\\S]*?\\n\\]);`).exec(config);
  if (!m) throw new Error(`.dependency-cruiser.cjs no longer declares ${name} as an array literal`);
  return JSON.parse(m[1]!.replace(/'/g, '"').replace(/,(\s*\])/g, '$1')) as string[][];
}

/** The page's section under `heading`, up to the next one. */
function section(heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `the section "${heading}"`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** A layer table's rows: layer number and the backquoted rooms of its second column. */
function docLayers(text = doc.slice(0, doc.indexOf('\n## '))): string[][] {
  const rows = text.split('\n').filter((l) => /^\| \d+ \| /.test(l));
  return rows.map((row, i) => {
    const [, level, rooms] = /^\| (\d+) \| ([^|]+) \|/.exec(row)!;
    expect(Number(level), `row ${i} of the layer table`).toBe(i);
    return [...rooms!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
  });
}

const storeLayers = () => docLayers(section('The rooms of the store'));

describe('docs/architecture.md', () => {
  it('has the layer table the lint rules enforce, room for room', () => {
    expect(docLayers()).toEqual(lintLayers());
  });

  it('names every folder and top-level module of core/ in its layer table', () => {
    const rooms = readdirSync(join(root, 'core')).filter((name) => statSync(join(root, 'core', name)).isDirectory() || name.endsWith('.ts'));
    expect(rooms.filter((r) => !docLayers().flat().includes(r))).toEqual([]);
  });

  it('has the store\'s room table the lint rules enforce, room for room', () => {
    expect(storeLayers()).toEqual(lintLayers('STORE_LAYERS'));
  });

  it('names every folder and file directly in core/store/ in the store\'s room table', () => {
    const store = join(root, 'core', 'store');
    const rooms = readdirSync(store).filter((name) => statSync(join(store, name)).isDirectory() || name.endsWith('.ts'));
    expect(rooms.filter((r) => !storeLayers().flat().includes(r))).toEqual([]);
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
