/**
 * The workbench benchmarks' demo store: generated once per size (seed 7) into the local .cache
 * folder, then copied per run so a benchmark's writes never reach the cached file.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../../core/clock.js';
import { generateDemo } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

export function demoStoreCopy(size: number, now: number, log: (line: string) => void): string {
  const dir = join(process.cwd(), '.cache', 'bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `demo-${size}.sqlite`);
  if (!existsSync(path)) {
    log(`generating a ${size.toLocaleString()}-memory demo store (cached in .cache/bench)…`);
    // Generated into a temporary name and renamed, so a benchmark starting meanwhile never copies half a store.
    // The store's clock is the benchmark's: the change feed's history starts at `now`, not at the wall clock,
    // so time travel to the instants a benchmark writes after `now` is inside it.
    const partial = `${path}.partial`;
    rmSync(partial, { force: true });
    const store = MemoryStore.open(partial, { create: true, clock: fixedClock(now) });
    generateDemo(store, { size, seed: 7, now });
    store.close();
    for (const suffix of ['-wal', '-shm', '.mnemo-index', '.mnemo-index-wal', '.mnemo-index-shm', '.mnemo-index.parts']) rmSync(`${partial}${suffix}`, { recursive: true, force: true });
    renameSync(partial, path);
  }
  const copy = join(tempDir('mnemo-bench-'), 'store.sqlite');
  copyFileSync(path, copy);
  return copy;
}
