/**
 * The browser-mode half of `npm run bench -- responsiveness`: `mnemo serve` on a cold store copy,
 * and four phases run one after another as a person would: the first explain (the recall indexes
 * are built), a reflection plan (review.plan, as the Reflection screen asks), the commit of the
 * whole plan (review.commit, nothing rejected) and the undo of that commit (journal.undo). During
 * each phase `store.info` is polled every 50 ms and the memory list's first page every second, as
 * the workbench's views do, and the job's own progress every 250 ms, as its progress bar does.
 */
import { latencyFigures, startPoller, type LatencyFigures, type Poller } from './latency-poller.js';
import { startMnemoChild, type MnemoChild } from './mnemo-child.js';
import { rssBytes } from './process-stats.js';
import { serveCaller, type Envelope } from './serve-call.js';

export const PHASES = ['explain', 'plan', 'commit', 'undo'] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseFigures {
  phase: Phase;
  /** How long the phase's own call took (the person waited that long for its answer). */
  call_ms: number;
  ok: boolean;
  error?: string;
  store_info: LatencyFigures;
  memory_list: LatencyFigures;
  progress: LatencyFigures;
  rss_mb_end: number | null;
  rss_mb_peak: number | null;
  detail?: Record<string, unknown>;
}

export interface BrowserFigures {
  listening_rss_mb: number | null;
  phases: PhaseFigures[];
  rss_mb_peak: number | null;
}

const mb = (b: number | null) => (b === null ? null : Math.round(b / 1e5) / 10);

/** The progress a view polls while each phase's call is pending. */
const PROGRESS_OF: Record<Phase, string> = { explain: 'recall.indexBuild', plan: 'reflect.progress', commit: 'journal.progress', undo: 'journal.progress' };

export async function runBrowserPhases(repo: string, db: string, opts: { now: number; phases: readonly Phase[]; log: (s: string) => void; query: string }): Promise<BrowserFigures> {
  const server: MnemoChild = await startMnemoChild(repo, ['serve', db, '--json', '--now', String(opts.now)], { stream: 'stdout', pattern: /^(\{.*"token".*\})$/m });
  const { port, token } = JSON.parse(server.match[1]!) as { port: number; token: string };
  const call = serveCaller(port, token);
  const asPoll = async (method: string, input: unknown) => {
    const e = await call(method, input);
    return e.ok ? { ok: true } : { ok: false, error: `${e.error.code}: ${e.error.message}` };
  };
  let peak = rssBytes(server.pid) ?? 0;
  const listening = peak;
  let phasePeak = 0;
  const sampler = setInterval(() => {
    const r = rssBytes(server.pid) ?? 0;
    peak = Math.max(peak, r);
    phasePeak = Math.max(phasePeak, r);
  }, 200);
  const out: PhaseFigures[] = [];
  let planId: string | null = null;
  let changeId: number | null = null;
  try {
    for (const phase of opts.phases) {
      phasePeak = 0;
      const pollers: Poller[] = [
        startPoller(50, () => asPoll('store.info', {})),
        startPoller(1000, () => asPoll('memory.list', { offset: 0, limit: 200 })),
        startPoller(250, () => asPoll(PROGRESS_OF[phase], {})),
      ];
      const t0 = performance.now();
      let result: Envelope;
      let detail: Record<string, unknown> | undefined;
      if (phase === 'explain') {
        result = await call('recall.explain', { query: opts.query, k: 10 });
      } else if (phase === 'plan') {
        result = await call('review.plan', {});
        if (result.ok) {
          const s = result.value as { id: string; items: number };
          planId = s.id;
          detail = { items: s.items };
        }
      } else if (phase === 'commit') {
        if (!planId) throw new Error('the commit phase needs the plan phase before it');
        result = await call('review.commit', { plan_id: planId, actions: [] });
        if (result.ok) {
          const r = result.value as { change_id: number | null; accepted: number; applied: unknown[] };
          changeId = r.change_id;
          detail = { accepted: r.accepted, applied: r.applied.length, change_id: r.change_id };
        }
      } else {
        if (changeId === null) throw new Error('the undo phase needs a commit that changed the store');
        result = await call('journal.undo', { change_id: changeId });
      }
      const callMs = performance.now() - t0;
      const [info, list, progress] = await Promise.all(pollers.map((p) => p.stop()));
      const figures: PhaseFigures = {
        phase,
        call_ms: Math.round(callMs),
        ok: result.ok,
        ...(result.ok ? {} : { error: `${result.error.code}: ${result.error.message}` }),
        store_info: latencyFigures(info!),
        memory_list: latencyFigures(list!),
        progress: latencyFigures(progress!),
        rss_mb_end: mb(rssBytes(server.pid)),
        rss_mb_peak: mb(phasePeak || null),
        ...(detail ? { detail } : {}),
      };
      out.push(figures);
      opts.log(
        `  ${phase.padEnd(7)} ${(callMs / 1000).toFixed(1)} s${result.ok ? '' : ` FAILED (${figures.error})`} · store.info p99 ${figures.store_info.p99_ms} max ${figures.store_info.max_ms} ms (${figures.store_info.calls}) · memory.list max ${figures.memory_list.max_ms} ms (${figures.memory_list.calls}) · ${PROGRESS_OF[phase]} max ${figures.progress.max_ms} ms · RSS ${figures.rss_mb_end} MB (peak ${figures.rss_mb_peak})`,
      );
      if (!result.ok) break;
    }
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
  return { listening_rss_mb: mb(listening), phases: out, rss_mb_peak: mb(peak) };
}
