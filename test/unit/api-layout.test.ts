/**
 * The API's layout: a method `prefix.name` is declared in core/api/contract/<prefix>.ts and handled
 * in core/api/handlers/<prefix>.ts, so its name says where to look. Every module of both folders is
 * loaded and every method record it exports is found, wherever it is, and held to that rule.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contract, contractByFile, METHOD_NAMES } from '../../core/api/contract/index.js';
import { handlersByFile } from '../../core/api/handlers/index.js';

const API = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'api');
const known = new Set<string>(METHOD_NAMES);
const prefixOf = (method: string) => method.slice(0, method.indexOf('.'));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every exported record whose keys are contract methods, with the file (relative to `folder`) that exports it. */
async function methodRecords(folder: string): Promise<{ file: string; exportName: string; record: Record<string, unknown> }[]> {
  const out: { file: string; exportName: string; record: Record<string, unknown> }[] = [];
  for (const path of tsFiles(join(API, folder))) {
    if (basename(path) === 'index.ts' && dirname(path) === join(API, folder)) continue;
    const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(mod)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      const keys = Object.keys(value);
      if (keys.length > 0 && keys.every((k) => known.has(k))) out.push({ file: relative(join(API, folder), path), exportName, record: value as Record<string, unknown> });
    }
  }
  return out;
}

/** method → the file its record comes from; a method found in two files fails. */
function fileOfEachMethod(records: { file: string; record: Record<string, unknown> }[]): Map<string, string> {
  const where = new Map<string, string>();
  for (const { file, record } of records) {
    for (const m of Object.keys(record)) {
      expect(where.get(m), `${m} is declared in both ${where.get(m)} and ${file}`).toBeUndefined();
      where.set(m, file);
    }
  }
  return where;
}

describe('API layout: one file per method prefix', () => {
  it('declares every method in contract/<prefix>.ts', async () => {
    const records = await methodRecords('contract');
    const where = fileOfEachMethod(records);
    for (const m of METHOD_NAMES) expect(where.get(m), m).toBe(`${prefixOf(m)}.ts`);
  });

  it('handles every method in handlers/<prefix>.ts', async () => {
    const records = await methodRecords('handlers');
    const where = fileOfEachMethod(records);
    for (const m of METHOD_NAMES) expect(where.get(m), m).toBe(`${prefixOf(m)}.ts`);
  });

  it('composes the contract and the handlers from those files, keyed by file name', async () => {
    for (const [folder, byFile, suffix] of [
      ['contract', contractByFile, 'Contract'],
      ['handlers', handlersByFile, 'Handlers'],
    ] as const) {
      const composed: string[] = [];
      for (const [file, record] of Object.entries(byFile)) {
        const mod = (await import(pathToFileURL(join(API, folder, `${file}.ts`)).href)) as Record<string, unknown>;
        expect(mod[`${file}${suffix}`], `${folder}/${file}.ts exports ${file}${suffix}`).toBe(record);
        for (const m of Object.keys(record)) expect(prefixOf(m), `${m} in ${folder}/${file}.ts`).toBe(file);
        composed.push(...Object.keys(record));
      }
      expect(composed.sort()).toEqual(Object.keys(contract).sort());
    }
    // And no prefix lacks its file: each prefix in use is a key of both indexes.
    const prefixes = [...new Set(METHOD_NAMES.map(prefixOf))].sort();
    expect(Object.keys(contractByFile).sort()).toEqual(prefixes);
    expect(Object.keys(handlersByFile).sort()).toEqual(prefixes);
  });
});
