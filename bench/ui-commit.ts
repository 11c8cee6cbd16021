/**
 * `npm run bench -- ui-commit [--size 20000] [--json]`
 *
 * The workbench's commit path against the CLI's apply, on copies of the same demo store with the
 * same accepted set (every item of the plan but one rejected merge, so the review's accept /
 * reject bookkeeping is exercised):
 *   - CLI: `applyPlan` in-process with the accepted ids (what `mnemo reflect --apply` runs);
 *   - UI: the HTTP server the browser talks to — review.plan, review.counts, review.commit — with
 *     journal.progress polled as the page does, then journal.undo of the change.
 * While the UI commit and the undo run, another client asks the server for a page of memories (`memory.list`) and the
 * progress every 200 ms; the largest of those latencies is the "server answers within 1 s" figure, reported beside the
 * same probe's figures over 20 s with no write running (the machine's own answer time).
 * Targets (issue 14 part 3): UI commit ≤ 1.5× CLI apply; undo ≤ 1.5× apply; max latency ≤ 1 s.
 */
import { copyFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { applyPlan } from '../core/reflect/apply.js';
import { planReflection } from '../core/reflect/plan.js';
import { ReviewedPlan } from '../core/review/review.js';
import { serveStore } from '../cli/commands/serve.js';
import { tempDir } from '../support/fixture.js';
import { demoStoreCopy } from './lib/demo-store.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '20000' }, json: { type: 'boolean', default: false } } });
const NOW = 1_780_000_000;
const size = Number(values.size);
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};

const base = demoStoreCopy(size, NOW, log);
const cliCopy = join(tempDir('mnemo-bench-'), 'cli.sqlite');
const uiCopy = join(tempDir('mnemo-bench-'), 'ui.sqlite');
copyFileSync(base, cliCopy);
copyFileSync(base, uiCopy);

// CLI: plan, then apply the accepted set in-process.
const engine = Engine.open(cliCopy, { clock: fixedClock(NOW), onWarning: () => {} });
let t0 = performance.now();
const plan = await planReflection(engine);
const planS = (performance.now() - t0) / 1000;
const firstMerge = plan.groups.find((g) => g.op === 'merge')?.ops[0]?.id;
const actions = firstMerge ? [{ do: 'reject' as const, ids: [firstMerge] }] : [];
const accepted = new ReviewedPlan(plan).accepted(actions);
log(`plan: ${accepted.length.toLocaleString()} accepted items in ${planS.toFixed(1)} s`);
t0 = performance.now();
const cli = await applyPlan(engine, plan, { accepted });
const cliS = (performance.now() - t0) / 1000;
engine.close();
log(`CLI apply: ${cli.applied.length.toLocaleString()} applied in ${cliS.toFixed(1)} s`);

// UI: the browser's calls over HTTP.
// Browser mode as `mnemo serve` runs it: the engine in its workers.
const { server, session } = await serveStore({ now: NOW, io: { out: () => undefined, err: () => undefined } }, uiCopy, { dir: tempDir('mnemo-bench-renderer-') });
/**
 * One API call over HTTP on its own connection (a kept-alive socket the server closes while the
 * client picks it up resets the call), without a client-side timeout: a big commit takes minutes.
 */
const api = <T>(method: string, body: unknown): Promise<T> =>
  new Promise((resolve, reject) => {
    const req = request(new URL(`/api/${method}`, server.url), { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-mnemo-token': server.token } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const j = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; value: T; error?: { message: string } };
        if (j.ok) resolve(j.value);
        else reject(new Error(`${method}: ${j.error?.message}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

interface ProbeFigures {
  maxLatencyMs: number;
  p95LatencyMs: number;
  over1s: number;
  maxAtS: number;
  probes: number;
}

/**
 * Runs `work` while another client asks the server for a page of memories (`memory.list`) and for
 * the progress (`journal.progress`, as the page polls it) every 200 ms. Each request's latency is
 * its own (the two are sent one after the other, so adding them would count one batch twice).
 */
async function withProbe<T>(work: () => Promise<T>): Promise<{ value: T; s: number } & ProbeFigures> {
  let done = false;
  const latencies: { ms: number; at: number }[] = [];
  const started = performance.now();
  const timed = async <R>(method: string, body: unknown): Promise<R> => {
    const t = performance.now();
    const r = await api<R>(method, body);
    latencies.push({ ms: performance.now() - t, at: (t - started) / 1000 });
    return r;
  };
  const probe = (async () => {
    while (!done) {
      await timed('memory.list', { limit: 20 });
      await timed('journal.progress', {});
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const value = await work();
  const s = (performance.now() - started) / 1000;
  done = true;
  await probe;
  return { value, s, ...figures(latencies) };
}

function figures(latencies: { ms: number; at: number }[]): ProbeFigures {
  const sorted = [...latencies].sort((a, b) => a.ms - b.ms);
  const worst = sorted[sorted.length - 1] ?? { ms: 0, at: 0 };
  return {
    maxLatencyMs: Math.round(worst.ms),
    p95LatencyMs: Math.round(sorted[Math.floor(0.95 * (sorted.length - 1))]?.ms ?? 0),
    over1s: sorted.filter((l) => l.ms > 1000).length,
    maxAtS: Number(worst.at.toFixed(1)),
    probes: latencies.length,
  };
}

/** The same probe for `seconds` with no write running: the server's own answer time on this machine now. */
async function baseline(seconds: number): Promise<ProbeFigures> {
  const { maxLatencyMs, p95LatencyMs, over1s, maxAtS, probes } = await withProbe(() => new Promise((r) => setTimeout(r, seconds * 1000)));
  return { maxLatencyMs, p95LatencyMs, over1s, maxAtS, probes };
}

try {
  const summary = await api<{ id: string; items: number }>('review.plan', {});
  await api('review.counts', { plan_id: summary.id, actions });
  const idle = await baseline(20);
  log(`no write running: requests answered within ${idle.maxLatencyMs} ms (p95 ${idle.p95LatencyMs} ms, ${idle.probes} requests)`);
  const commit = await withProbe(() => api<{ change_id: number; applied: number; accepted: number }>('review.commit', { plan_id: summary.id, actions }));
  log(`UI commit: ${commit.value.accepted.toLocaleString()} accepted in ${commit.s.toFixed(1)} s; other requests answered within ${commit.maxLatencyMs} ms (worst at ${commit.maxAtS} s; ${commit.probes} probes)`);
  const undo = await withProbe(() => api('journal.undo', { change_id: commit.value.change_id }));
  log(`undo: ${undo.s.toFixed(1)} s; other requests answered within ${undo.maxLatencyMs} ms (worst at ${undo.maxAtS} s; ${undo.probes} probes)`);
  const result = {
    bench: 'ui-commit',
    size,
    accepted: accepted.length,
    plan_s: Number(planS.toFixed(1)),
    cli_apply_s: Number(cliS.toFixed(2)),
    ui_commit_s: Number(commit.s.toFixed(2)),
    ui_over_cli: Number((commit.s / cliS).toFixed(2)),
    undo_s: Number(undo.s.toFixed(2)),
    undo_over_apply: Number((undo.s / commit.s).toFixed(2)),
    max_latency_during_commit_ms: commit.maxLatencyMs,
    max_latency_during_undo_ms: undo.maxLatencyMs,
    latency: {
      no_write: idle,
      commit: { maxLatencyMs: commit.maxLatencyMs, p95LatencyMs: commit.p95LatencyMs, over1s: commit.over1s, maxAtS: commit.maxAtS, probes: commit.probes },
      undo: { maxLatencyMs: undo.maxLatencyMs, p95LatencyMs: undo.p95LatencyMs, over1s: undo.over1s, maxAtS: undo.maxAtS, probes: undo.probes },
    },
    targets_met: commit.s <= 1.5 * cliS && undo.s <= 1.5 * commit.s && commit.maxLatencyMs <= 1000 && undo.maxLatencyMs <= 1000,
  };
  log(JSON.stringify(result, null, 2));
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await server.close();
  await session.close();
}
