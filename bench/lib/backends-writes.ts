/**
 * Write throughput for `npm run bench -- backends`: N writer processes (bench/lib/backends-writer.ts),
 * each its own owner `w{i}@bench`, remember memories for the same window; all open the store and
 * write for a warm-up first (counted apart), then start together. Afterwards each owner's rows are
 * counted in the store: a write a writer was told succeeded but that is not there is a lost write.
 * How many cores the machine kept busy over the window is measured too: one writer that keeps
 * most of a core busy (its process, its connection's worker thread, its server backend, one
 * after another) leaves a machine of C cores room for C / that many times its throughput at most.
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock } from '../../core/clock.js';
import { openStoreAt } from '../../core/store/open-location.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

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
  /** Cores the whole machine kept busy on average over the window (writers, server, the rest). */
  busy_cores: number;
  /** The machine's cores. */
  cores: number;
}

interface WriterReport {
  written: number;
  errors: number;
  first_error: string | null;
}

const defaultOwner = (i: number) => `w${i}@bench`;
const ownerOf = defaultOwner;
/** How long every writer writes, all at once, before the window: warm code and connections. */
const WARM_MS = 2_000;

/** Busy and total CPU time over every core so far (ms). */
export function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of cpus()) {
    const t = c.times.user + c.times.nice + c.times.sys + c.times.irq;
    busy += t;
    total += t + c.times.idle;
  }
  return { busy, total };
}

export function ownerCounts(location: string, writers: number, now: number, ownerOf: (i: number) => string = defaultOwner): number[] {
  const store = openStoreAt(location, { readonly: true, clock: fixedClock(now) });
  try {
    return Array.from({ length: writers }, (_, i) => countMemories(store, { owner: ownerOf(i) }));
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
  const message = (child: (typeof children)[number], key: 'opened' | 'ready') =>
    new Promise<{ warmed?: number }>((resolve) => child.on('message', (m: { opened?: boolean; ready?: boolean; warmed?: number }) => m[key] && resolve(m)));
  await Promise.all(children.map((child) => message(child, 'opened')));
  const warmedUp = children.map((child) => message(child, 'ready'));
  for (const child of children) child.send({ warm: WARM_MS });
  const warmed = (await Promise.all(warmedUp)).map((m) => m.warmed ?? 0);
  const cpu0 = cpuTimes();
  const t0 = performance.now();
  for (const child of children) child.send({ go: windowMs });
  const done = await Promise.all(reports);
  const elapsedS = (performance.now() - t0) / 1000;
  const cpu1 = cpuTimes();
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
    counted: after.reduce((n, c, i) => n + c - before[i]! - warmed[i]!, 0),
    lost: done.reduce((n, r, i) => n + Math.max(0, r.written + warmed[i]! - (after[i]! - before[i]!)), 0),
    first_error: done.find((r) => r.first_error)?.first_error ?? null,
    busy_cores: Number((((cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * cpus().length).toFixed(2)),
    cores: cpus().length,
  };
}
