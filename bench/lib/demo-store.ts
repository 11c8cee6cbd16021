/**
 * The workbench benchmarks' demo store: generated once per size (seed 7) into the local .cache
 * folder, then copied per run so a benchmark's writes never reach the cached file.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/store.js';
import { tempDir } from '../../support/fixture.js';

export function demoStoreCopy(size: number, now: number, log: (line: string) => void): string {
  const dir = join(process.cwd(), '.cache', 'bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `demo-${size}.sqlite`);
  if (!existsSync(path)) {
    log(`generating a ${size.toLocaleString()}-memory demo store (cached in .cache/bench)…`);
    const store = MemoryStore.open(path, { create: true });
    generateDemo(store, { size, seed: 7, now });
    store.close();
  }
  const copy = join(tempDir('mnemo-bench-'), 'store.sqlite');
  copyFileSync(path, copy);
  return copy;
}
