/**
 * `mnemo erase`: forgetting that can be proved (core/erase/erase.ts). `--dry-run` lists what would
 * go, place by place, and writes nothing. The erase itself prints its progress on standard error;
 * Ctrl-C cancels it while it is still planning, and after its first write it runs to its end (what
 * it removed cannot be put back, so stopping half-way would only leave a half-erased store).
 */
import { badInput, MnemoError } from '../../core/errors.js';
import { call } from '../../core/api/service.js';
import type { EraseDryRun, EraseReceipt } from '../../core/erase/erase.js';
import { ERASE_PLACES, type ErasePlaceCounts } from '../../core/store/port/erase.js';
import { flag, requirePositional, str, strs, type Command } from '../command.js';
import { openSession } from '../session.js';
import { etaWords } from '../long-write.js';

/** How often the progress line is printed while the erase runs. */
const PROGRESS_EVERY_MS = 1000;

const PLACE_NAMES: Record<keyof ErasePlaceCounts, string> = {
  memories: 'memories',
  edges: 'edges',
  journal_images: 'journal images',
  journal_changes: 'changes no longer undoable',
  journal_scrubbed: 'journal rows scrubbed',
  feed_rows: 'change-feed images',
  feed_scrubbed: 'change-feed rows scrubbed',
  access_events: 'access events',
  access_queries: 'access queries scrubbed',
  access_rings: 'access rings scrubbed',
  tombstones: 'tombstones',
  belief_deltas: 'belief observations',
  belief_evidence: 'belief evidence scrubbed',
  belief_dimensions: 'belief dimensions derived again',
  belief_aliases: 'belief aliases',
  maintenance: 'reports and settings scrubbed',
};

function placeLines(counts: ErasePlaceCounts): string[] {
  return ERASE_PLACES.filter((p) => counts[p] > 0).map((p) => `  ${PLACE_NAMES[p].padEnd(32)} ${counts[p].toLocaleString('en-US')}`);
}

function dryRunText(d: EraseDryRun): string {
  const lines = [
    `would erase ${d.memories.total.toLocaleString('en-US')} ${d.memories.total === 1 ? 'memory' : 'memories'} (${d.memories.live} live, ${d.memories.gone} already gone with traces left), planned in ${d.planned_in_s} s:`,
    ...placeLines(d.counts),
    `  ${'index snapshots beside the store'.padEnd(32)} ${d.derived.index_snapshots}`,
    `  ${'their list search rows'.padEnd(32)} ${d.derived.text_search_rows}`,
    `then: ${d.reclaim.cost}`,
    ...(d.sample.length ? ['first of them:', ...d.sample.map((s) => `  ${s.id.slice(0, 8)} ${s.owner || '(shared)'} ${s.live ? (s.head ?? '') : '(gone; traces remain)'}`)] : []),
    'nothing was written (dry run); an erase cannot be undone',
  ];
  return lines.join('\n');
}

/** How the bytes went, in the receipt's words. */
const reclaimWords = (method: EraseReceipt['reclaim']['method']): string => (method === 'zeroed' ? 'deleted content and free pages zeroed, WAL truncated, in' : 'VACUUM FULL of');

function receiptText(r: EraseReceipt): string {
  const bytes = r.reclaim.bytes_before !== null && r.reclaim.bytes_after !== null ? ` (${r.reclaim.bytes_before.toLocaleString('en-US')} → ${r.reclaim.bytes_after.toLocaleString('en-US')} bytes)` : '';
  return [
    `erased ${r.memories.total} ${r.memories.total === 1 ? 'memory' : 'memories'} at ${r.erased_at_iso} by ${r.by} (journal change #${r.change_id}, which cannot be undone):`,
    ...placeLines(r.counts),
    `  ${'index snapshots dropped'.padEnd(32)} ${r.derived.index_snapshots}`,
    `  ${'their list search rows deleted'.padEnd(32)} ${r.derived.text_search_rows}`,
    r.reclaim.method === 'none' ? 'the files were not rewritten' : `the files: ${reclaimWords(r.reclaim.method)} ${r.reclaim.rewrote.join(', ')} in ${r.reclaim.seconds} s${bytes}`,
    ...[...r.reclaim.problems, ...r.derived.problems].map((p) => `warning: ${p}`),
    'not reached by any store:',
    ...r.not_reached.map((n) => `  - ${n}`),
  ].join('\n');
}

export const eraseCommand: Command = {
  name: 'erase',
  summary: 'erase memories for good, from every place their content lives (journal, change feed, access log, beliefs, index files); cannot be undone',
  usage: 'mnemo erase <db> (--id ID... | --match TEXT | --owner OWNER) [--dry-run] [--now T] [--json]',
  timed: true,
  options: { id: { type: 'string', multiple: true }, match: { type: 'string' }, owner: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    if (ctx.positionals.length > 1) throw badInput(`unexpected ${JSON.stringify(ctx.positionals[1])}: name memories with --id\nusage: ${this.usage}`);
    const ids = strs(ctx, 'id');
    const match = str(ctx, 'match');
    const owner = str(ctx, 'owner');
    const given = [ids.length ? 'ids' : null, match !== undefined ? 'match' : null, owner !== undefined ? 'owner' : null].filter(Boolean);
    if (given.length !== 1) throw badInput(`give exactly one of --id (repeatable), --match or --owner\nusage: ${this.usage}`);
    const dryRun = flag(ctx, 'dry-run');
    const input = { ...(ids.length ? { ids } : {}), ...(match !== undefined ? { match } : {}), ...(owner !== undefined ? { owner } : {}) };
    const session = openSession(ctx, db);
    const progress = dryRun ? null : setInterval(() => void report(), PROGRESS_EVERY_MS);
    let cancelAsked = false;
    const report = async () => {
      const p = await call(session, 'journal.progress', {});
      if (!p.running) return;
      ctx.io.err(`${p.phase_label ?? 'erasing'}… ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} ${p.unit ?? ''}${etaWords(p.eta_s)}${p.cancellable ? ' (Ctrl-C cancels)' : ''}`);
    };
    const onInterrupt = () => {
      if (cancelAsked) return;
      cancelAsked = true;
      void call(session, 'journal.cancel', {}).then((r) => {
        if (!r.cancelled) ctx.io.err('the erase is past its first write and cannot be stopped: it runs to its end');
      });
    };
    if (!dryRun) process.on('SIGINT', onInterrupt);
    try {
      if (dryRun) {
        const plan = await call(session, 'memory.erasePlan', input);
        ctx.io.out(ctx.json ? JSON.stringify(plan) : dryRunText(plan));
        return;
      }
      const res = await call(session, 'memory.erase', input);
      ctx.io.out(ctx.json ? JSON.stringify(res) : receiptText(res));
    } catch (err) {
      if (err instanceof MnemoError && err.details?.['cancelled'] === true) {
        ctx.io.err(err.message);
        return 130;
      }
      throw err;
    } finally {
      if (progress) clearInterval(progress);
      process.off('SIGINT', onInterrupt);
      session.close();
    }
  },
};
