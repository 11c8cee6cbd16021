/**
 * Write throughput for `npm run bench -- backends`: N writer processes (bench/lib/backends-writer.ts),
 * each its own owner `w{i}@bench`, remember memories for the same window; all open the store
 * first and start together. Afterwards each owner's rows are counted in the store: a write a writer
 * was told succeeded but that is not there is a lost write.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../../core/clock.js';
import { openStoreAt } from '../../core/store/open-location.js';

const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'backends-writer.ts');

export interface WritePhase {
  writers: number;
  window_s: number;
  written: number;
  per_s: number;
  errors: number;
  /** Rows found in the store under the writers' owners, written during the window. */
  counted: number;
  /** Rows a writer was told were written that its owner's count does not show. */
  lost: number;
  first_error: string | null;
}

interface WriterReport {
  written: number;
  errors: number;
  first_error: string | null;
}

const ownerOf = (i: number) => `w${i}@bench`;

function ownerCounts(location: string, writers: number, now: number): number[] {
  const store = openStoreAt(location, { readonly: true, clock: fixedClock(now) });
  try {
    return Array.from({ length: writers }, (_, i) => store.count({ owner: ownerOf(i) }));
  } finally {
    store.close();
  }
}

export async function writePhase(location: string, writers: number, windowMs: number, now: number): Promise<WritePhase> {
  const before = ownerCounts(location, writers, now);
  const children = Array.from({ length: writers }, (_, i) => fork(WRITER, [location, ownerOf(i), String(now)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  const reports = children.map(
    (child, i) =>
      new Promise<WriterReport>((resolve, reject) => {
        child.on('message', (m: Partial<WriterReport>) => {
          if (m.written !== undefined) resolve(m as WriterReport);
        });
        child.once('exit', (code) => reject(new Error(`writer ${ownerOf(i)} exited with ${code} before reporting`)));
      }),
  );
  await Promise.all(children.map((child) => new Promise<void>((resolve) => child.on('message', (m: { ready?: boolean }) => m.ready && resolve()))));
  const t0 = performance.now();
  for (const child of children) child.send({ go: windowMs });
  const done = await Promise.all(reports);
  const elapsedS = (performance.now() - t0) / 1000;
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : Promise.resolve())));
  const after = ownerCounts(location, writers, now);
  const written = done.reduce((n, r) => n + r.written, 0);
  return {
    writers,
    window_s: Number(elapsedS.toFixed(2)),
    written,
    // Over the whole window until the last writer reported: a writer's last write may end after the window.
    per_s: Number((written / elapsedS).toFixed(1)),
    errors: done.reduce((n, r) => n + r.errors, 0),
    counted: after.reduce((n, c, i) => n + c - before[i]!, 0),
    lost: done.reduce((n, r, i) => n + Math.max(0, r.written - (after[i]! - before[i]!)), 0),
    first_error: done.find((r) => r.first_error)?.first_error ?? null,
  };
}
