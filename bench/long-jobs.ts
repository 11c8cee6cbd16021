/**
 * `npm run bench -- long-jobs [--size 100000 | --store <file>] [--groups merge,link,rescore,prune] [--commit-cancels check,5,30,120] [--undo-cancels 5,20] [--repeats 3] [--sample-ms 1000] [--out file.json] [--json]`
 *
 * Whether the long writes tell the truth, on a copy of the demo store (issue 37, item 4):
 *   - the commit of a reflection plan (its items of the `--groups` given; the other groups are
 *     rejected, so `--groups merge` commits only its merges), then its undo and its redo, each with journal.progress
 *     sampled every second: is the bar linear in time within each phase (r² of done against time,
 *     and the largest gap between the share done and the share of the phase's time gone), and does
 *     the ETA converge (at 10, 25, 50, 75 and 90 % of a phase's time, how far the end it predicted
 *     was from the real end, as a share of the time then left);
 *   - cancel latency: the commit (and the undo, and the redo) started again and cancelled at
 *     several points, each `--repeats` times: `check` halfway through the commit's check, a number
 *     that many seconds into the phase that writes (apply, undo, redo). Measured: the time from
 *     journal.cancel to the job's end, with the phase it was in and the rows it took back. A cancelled commit leaves the
 *     store as it was, so the same plan is committed again for the next trial (a store that changed
 *     would be refused by its check).
 * In process, through the API the doors call (`call`), with the pacing every door uses. Medians.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import type { WriteJobState } from '../core/api/contract/journal.js';
import { tempDir } from '../support/fixture.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    /** Another store than the demo (copied first; the file itself is never written). */
    store: { type: 'string' },
    'commit-cancels': { type: 'string', default: 'check,5,30,120' },
    'undo-cancels': { type: 'string', default: '5,20' },
    /** The plan's groups to commit (the others are rejected): all four by default. */
    groups: { type: 'string', default: 'merge,link,rescore,prune' },
    repeats: { type: 'string', default: '3' },
    'sample-ms': { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
    /** Also write the whole result, every progress sample included, to this file. */
    out: { type: 'string' },
  },
});
const NOW = 1_780_000_000;
const size = Number(values.size);
const repeats = Number(values.repeats);
const sampleMs = Number(values['sample-ms']);
/** Where to cancel: halfway through the check, or seconds into the phase that writes. */
type Point = 'check' | number;
const points = (s: string): Point[] =>
  s
    .split(',')
    .filter(Boolean)
    .map((p) => (p === 'check' ? 'check' : Number(p)));
const WRITING = new Set(['apply', 'undo', 'redo']);
/** Progress of the benchmark itself: on stderr, so a --json run still shows how far it is. */
const log = (s: string) => {
  process.stderr.write(`${s}\n`);
};
const round = (x: number, d = 2) => Number(x.toFixed(d));

interface Sample {
  t: number;
  phase: string | null;
  done: number;
  total: number;
  eta_s: number | null;
  cancelling: boolean;
}

const path = values.store ? copiedStore(values.store) : demoStoreCopy(size, NOW, log);

function copiedStore(from: string): string {
  const to = join(tempDir('mnemo-bench-'), 'store.sqlite');
  copyFileSync(from, to);
  return to;
}
const session = ApiSession.withFrozenClock(NOW);
session.open(path);

/** Runs `start` as a job, sampling journal.progress every sampleMs; cancels it at `cancelAt` (Point). */
async function sampled(start: () => Promise<unknown>, cancelAt: Point | null): Promise<{ s: number; samples: Sample[]; cancelledAt: number | null; error: unknown }> {
  const t0 = performance.now();
  const at = () => (performance.now() - t0) / 1000;
  const samples: Sample[] = [];
  let cancelledAt: number | null = null;
  let finished = false;
  const outcome = start().then(
    () => null,
    (e: unknown) => e,
  );
  void outcome.finally(() => (finished = true));
  let echoed = 0;
  let writingFrom: number | null = null;
  let due = false;
  const note = async () => {
    const p: WriteJobState = await call(session, 'journal.progress', {});
    if (!p.running) return;
    if (writingFrom === null && p.phase !== null && WRITING.has(p.phase)) writingFrom = at();
    if (cancelAt === 'check') due ||= p.phase === 'check' && p.done >= p.total / 2;
    else if (cancelAt !== null) due ||= writingFrom !== null && at() - writingFrom >= cancelAt;
    const s = { t: round(at()), phase: p.phase, done: p.done, total: p.total, eta_s: p.eta_s, cancelling: p.cancelling };
    samples.push(s);
    if (s.t - echoed >= 30) {
      echoed = s.t;
      log(`  ${s.t.toFixed(0)} s: ${s.phase} ${s.done.toLocaleString()} of ${s.total.toLocaleString()}, eta ${s.eta_s ?? '-'} s${s.cancelling ? ', cancelling' : ''}`);
    }
  };
  while (!finished) {
    await note();
    if (due && cancelledAt === null) {
      await call(session, 'journal.cancel', {});
      cancelledAt = at();
      await note();
    }
    // Close looks while a cancel is due soon or under way, so its moment and its end are sharp.
    const near = cancelAt !== null && cancelledAt === null && (cancelAt === 'check' || writingFrom !== null);
    await new Promise((r) => setTimeout(r, cancelledAt !== null || near ? 50 : sampleMs));
  }
  const error = await outcome;
  return { s: at(), samples, cancelledAt, error };
}

/** Linearity and ETA convergence of one phase's samples, given when the phase ended. */
function phaseFigures(samples: Sample[], phase: string, end: number) {
  const xs = samples.filter((s) => s.phase === phase && !s.cancelling);
  if (xs.length < 3) return null;
  const t0 = xs[0]!.t;
  const span = end - t0;
  const total = xs[xs.length - 1]!.total;
  // r² of done against time.
  const n = xs.length;
  const mt = xs.reduce((a, s) => a + s.t, 0) / n;
  const md = xs.reduce((a, s) => a + s.done, 0) / n;
  const cov = xs.reduce((a, s) => a + (s.t - mt) * (s.done - md), 0);
  const vt = xs.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  const vd = xs.reduce((a, s) => a + (s.done - md) ** 2, 0);
  const r2 = vt > 0 && vd > 0 ? (cov * cov) / (vt * vd) : 1;
  const maxGap = Math.max(...xs.map((s) => Math.abs(s.done / total - (s.t - t0) / span)));
  const eta: Record<string, number | null> = {};
  for (const q of [0.1, 0.25, 0.5, 0.75, 0.9]) {
    const target = t0 + q * span;
    const s = xs.reduce((best, x) => (Math.abs(x.t - target) < Math.abs(best.t - target) ? x : best), xs[0]!);
    eta[`at_${q * 100}pct`] = s.eta_s === null ? null : round((s.t + s.eta_s - end) / (end - s.t));
  }
  const firstEta = xs.find((s) => s.eta_s !== null);
  return { seconds: round(span, 1), total, samples: n, r2: round(r2, 3), max_gap: round(maxGap, 3), eta_error_share: eta, first_eta_after_s: firstEta ? round(firstEta.t - t0, 1) : null };
}

/** Where each phase of a run ended (the start of the next one, or the run's end). */
function phaseEnds(samples: Sample[], runEnd: number): Map<string, number> {
  const ends = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    const next = samples.slice(i + 1).find((s) => s.phase !== samples[i]!.phase);
    ends.set(samples[i]!.phase ?? '', next ? next.t : runEnd);
  }
  return ends;
}

function runFigures(r: Awaited<ReturnType<typeof sampled>>) {
  const ends = phaseEnds(r.samples, r.s);
  const phases: Record<string, unknown> = {};
  for (const [phase, end] of ends) phases[phase] = phaseFigures(r.samples, phase, end);
  return { seconds: round(r.s, 1), phases };
}

interface Trial {
  /** 'check', or seconds into the phase that writes. */
  cancel_at: Point;
  latency_s: number;
  phase: string | null;
  done: number;
  total: number;
  taken_back_rows: number;
  first_answer_cancelling: boolean;
}

function trialOf(r: Awaited<ReturnType<typeof sampled>>, point: Point): Trial {
  const before = [...r.samples].reverse().find((s) => !s.cancelling);
  const back = r.samples.filter((s) => s.phase === 'take-back');
  const cancelled = (r.error as { details?: { cancelled?: boolean } } | null)?.details?.cancelled === true;
  if (!cancelled) throw new Error(`the job was not cancelled: ${String(r.error)}`);
  return {
    cancel_at: point,
    latency_s: round(r.s - r.cancelledAt!),
    phase: before?.phase ?? null,
    done: before?.done ?? 0,
    total: before?.total ?? 0,
    taken_back_rows: back.length ? back[back.length - 1]!.total : 0,
    // Samples keep their time rounded to 10 ms: the cancel's moment is compared the same way.
    first_answer_cancelling: r.samples.find((s) => s.t >= round(r.cancelledAt!))?.cancelling ?? false,
  };
}

async function trials(label: string, at: Point[], start: () => Promise<unknown>) {
  const out: Record<string, { median_latency_s: number; trials: Trial[] }> = {};
  for (const point of at) {
    const ts: Trial[] = [];
    for (let i = 0; i < repeats; i++) {
      const t = trialOf(await sampled(start, point), point);
      ts.push(t);
      log(`${label} cancelled ${point === 'check' ? 'halfway through its check' : `${point} s into writing`} (${t.phase} ${t.done.toLocaleString()} of ${t.total.toLocaleString()}): ended ${t.latency_s} s later, ${t.taken_back_rows.toLocaleString()} rows taken back`);
    }
    out[point === 'check' ? 'check' : `${point}s`] = { median_latency_s: median(ts.map((t) => t.latency_s)), trials: ts };
  }
  return out;
}

try {
  let t = performance.now();
  const plan = await call(session, 'review.plan', {});
  const planS = (performance.now() - t) / 1000;
  log(`plan: ${plan.items.toLocaleString()} items in ${planS.toFixed(1)} s`);
  const kept = new Set(values.groups.split(',').filter(Boolean));
  const rejected = ['merge', 'link', 'rescore', 'prune'].filter((g) => !kept.has(g)).map((group) => ({ do: 'reject' as const, group }));
  const commit = () => call(session, 'review.commit', { plan_id: plan.id, actions: rejected });

  const commitCancels = await trials('commit', points(values['commit-cancels']), commit);
  const full = await sampled(commit, null);
  if (full.error) throw full.error;
  const changeId = (await call(session, 'journal.history', { limit: 1 }))[0]!.id;
  log(`commit: ${full.s.toFixed(1)} s, change #${changeId}`);
  const undo = () => call(session, 'journal.undo', { change_id: changeId });
  const redo = () => call(session, 'journal.redo', { change_id: changeId });
  const undoCancels = await trials('undo', points(values['undo-cancels']), undo);
  const fullUndo = await sampled(undo, null);
  if (fullUndo.error) throw fullUndo.error;
  log(`undo: ${fullUndo.s.toFixed(1)} s`);
  const redoCancels = await trials('redo', points(values['undo-cancels']), redo);
  const fullRedo = await sampled(redo, null);
  if (fullRedo.error) throw fullRedo.error;
  log(`redo: ${fullRedo.s.toFixed(1)} s`);
  t = performance.now();

  const result = {
    bench: 'long-jobs',
    size: values.store ? null : size,
    store: values.store ?? null,
    items: plan.items,
    groups: [...kept],
    plan_s: round(planS, 1),
    commit: runFigures(full),
    undo: runFigures(fullUndo),
    redo: runFigures(fullRedo),
    cancel: { commit: commitCancels, undo: undoCancels, redo: redoCancels },
    samples: { commit: full.samples, undo: fullUndo.samples, redo: fullRedo.samples },
  };
  if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 1));
  const { samples: _samples, ...figures } = result;
  if (values.json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
} finally {
  session.close();
}
