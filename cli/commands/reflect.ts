import { effectsPhrase } from '../../core/reflect/effects.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { loadLlmEndpoints } from '../../core/reflect/llm-endpoints.js';
import { REFERENCE_OP_NAME, type OpName } from '../../core/reflect/policy.js';
import type { ReflectionPlan } from '../../core/reflect/types.js';
import { flag, requirePositional, str, type Command } from '../command.js';
import { openSession } from '../session.js';
import { asLongWrite, CANCELLED_EXIT, cancelledJob } from '../long-write.js';

function summary(plan: ReflectionPlan): string {
  const lines = [`plan ${plan.id} at ${plan.now} (store ${plan.store.name}, ${plan.store.live} live memories)`];
  for (const g of plan.groups) lines.push(`  ${g.name.padEnd(20)} ${String(g.ops.length).padStart(6)} ops  ${g.ms.toFixed(0)} ms`);
  const r = plan.report;
  lines.push(`report: merged ${r.merged}, edges_added ${r.edges_added}, rescored ${r.rescored}, pruned ${r.pruned}, created ${r.created}, reconciled ${r.reconciled}${r.interrupted ? `, interrupted in ${r.stopped_in}` : ''}`);
  if (plan.neighbours) lines.push(`neighbour pairs: ${plan.neighbours.pairs_exact} exact of ${plan.neighbours.pairs_all} possible (${plan.neighbours.ms.toFixed(0)} ms)`);
  return lines.join('\n');
}

/**
 * Progress on stderr for plans that run longer than a second (a 100k store takes ~30 s): a line
 * when the step changes and at every further tenth of a step's items. Returns the stop function.
 */
function reportPlanProgress(session: Parameters<typeof call>[0], write: (line: string) => void): () => void {
  let last = '';
  const timer = setInterval(() => {
    void call(session, 'reflect.progress', {}).then((p) => {
      if (!p.running || !p.op) return;
      const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0;
      const key = `${p.op}:${tenth}`;
      if (key === last) return;
      last = key;
      const step = p.op === 'load' ? 'loading memories and finding neighbours' : (REFERENCE_OP_NAME[p.op as OpName] ?? p.op);
      write(`planning: ${step}${p.total > 0 ? ` ${tenth * 10} %` : ''}`);
    });
  }, 1000);
  return () => clearInterval(timer);
}

export const reflectCommand: Command = {
  name: 'reflect',
  summary: 'plan a reflection pass (--dry-run, writes nothing) or apply a reviewed plan (--apply plan.json)',
  usage:
    'mnemo reflect <db> --dry-run [--until merge|link|rescore|prune] [--scope S] [--out plan.json] [--generative reconcile,abstract,episode [--llm-endpoint NAME] [--llm-config FILE | --llm-url URL --llm-model M] [--transcript FILE]] [--now T] [--json]\n       mnemo reflect <db> --apply <plan.json|-> [--accept id,...] [--now T] [--json]',
  timed: true,
  options: {
    'dry-run': { type: 'boolean' },
    apply: { type: 'string' },
    accept: { type: 'string' },
    until: { type: 'string' },
    scope: { type: 'string' },
    out: { type: 'string' },
    generative: { type: 'string' },
    'llm-url': { type: 'string' },
    'llm-model': { type: 'string' },
    'llm-config': { type: 'string' },
    'llm-endpoint': { type: 'string' },
    transcript: { type: 'string' },
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const applyPath = str(ctx, 'apply');
    if (flag(ctx, 'dry-run') === (applyPath !== undefined)) throw badInput(`give exactly one of --dry-run or --apply <plan.json>\nusage: ${this.usage}`);
    if (applyPath !== undefined) {
      let raw: unknown;
      try {
        raw = JSON.parse(applyPath === '-' ? await ctx.io.readStdin!() : readFileSync(applyPath, 'utf8'));
      } catch (err) {
        throw badInput(`cannot read plan ${applyPath}: ${(err as Error).message}`, { field: 'apply' });
      }
      const accept = str(ctx, 'accept');
      const session = openSession(ctx, db);
      try {
        const input = { plan: raw, accepted: accept === undefined ? null : accept.split(',').map((s) => s.trim()).filter(Boolean) };
        const res = await asLongWrite(session, 'apply', ctx.io.err, () => call(session, 'reflect.apply', input));
        if (ctx.json) ctx.io.out(JSON.stringify({ change_id: res.change_id, report: res.report, effects: res.effects, applied: res.applied.length, skipped: res.skipped, adjusted: res.adjusted }));
        else {
          const r = res.report;
          // The effects first, counted as the review's preview counts them; then nooa's report (its edges_added counts form_edges links only).
          ctx.io.out(`applied ${res.applied.length} ops as change #${res.change_id ?? '-'}: ${effectsPhrase(res.effects)} (merged ${r.merged}, links formed ${r.edges_added}, rescored ${r.rescored}, pruned ${r.pruned})`);
          for (const s of res.skipped) ctx.io.out(`  skipped ${s.id}: ${s.reason}`);
        }
      } catch (err) {
        if (!cancelledJob(err)) throw err;
        ctx.io.err(`mnemo reflect: ${(err as Error).message}`);
        return CANCELLED_EXIT;
      } finally {
        session.close();
      }
      return;
    }
    const gen = str(ctx, 'generative');
    let transcript: string | undefined;
    const tpath = str(ctx, 'transcript');
    if (tpath) transcript = readFileSync(tpath, 'utf8');
    // The operator's flags configure the endpoints on this side; the request only names one.
    const llmEndpoints = gen ? loadLlmEndpoints({ configPath: str(ctx, 'llm-config'), flags: { base_url: str(ctx, 'llm-url'), model: str(ctx, 'llm-model') } }) : undefined;
    const session = openSession(ctx, db, { readonly: true, ...(llmEndpoints ? { llmEndpoints } : {}) });
    const stopProgress = ctx.json ? () => {} : reportPlanProgress(session, (line) => ctx.io.err(line));
    try {
      const plan = await call(session, 'reflect.plan', {
        ...(str(ctx, 'until') ? { until: str(ctx, 'until') } : {}),
        ...(str(ctx, 'scope') ? { scope: str(ctx, 'scope') } : {}),
        ...(gen
          ? { generative: { ops: gen.split(','), ...(str(ctx, 'llm-endpoint') ? { endpoint: str(ctx, 'llm-endpoint') } : {}), ...(transcript ? { transcript } : {}) } }
          : {}),
      });
      const out = str(ctx, 'out');
      if (out) writeFileSync(out, JSON.stringify(plan));
      if (ctx.json) ctx.io.out(JSON.stringify(plan));
      else ctx.io.out(summary(plan) + (out ? `\nplan written to ${out}` : ''));
    } finally {
      stopProgress();
      session.close();
    }
  },
};
