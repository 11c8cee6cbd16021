/**
 * `mnemo copy <from> <to>`: a whole store from one backend to another (a SQLite file or a
 * postgres://…?schema=name URL on either side). Progress on stderr; `--json` prints a summary.
 * docs/postgres.md says what is copied and how `--resume` works.
 */
import { copyStore, DEFAULT_BATCH_ROWS, type CopyProgress } from '../../core/store/copy/copy-stores.js';
import { ThroughputMeter } from '../../core/model/throughput.js';
import { etaWords } from '../long-write.js';
import { flag, intOpt, requirePositional, type Command } from '../command.js';

const PROGRESS_EVERY_MS = 1000;

export const copyCommand: Command = {
  name: 'copy',
  summary: 'copy a whole store (every table, every row) between SQLite files and PostgreSQL schemas; resumable',
  usage: 'mnemo copy <from> <to> [--resume] [--batch N] [--json]   (a store is a SQLite file or postgres://user@host/db?schema=name)',
  options: { resume: { type: 'boolean' }, batch: { type: 'string' } },
  run(ctx) {
    const from = requirePositional(ctx, 0, 'from', this.usage);
    const to = requirePositional(ctx, 1, 'to', this.usage);
    const batchRows = intOpt(ctx, 'batch', DEFAULT_BATCH_ROWS, [1, 10_000]);
    const started = performance.now();
    let lastLine = started;
    // The time left in the table being copied, at the pace of its last seconds.
    let table = '';
    let meter = new ThroughputMeter();
    const onProgress = (p: CopyProgress) => {
      const now = performance.now();
      if (p.table !== table) {
        table = p.table;
        meter = new ThroughputMeter();
      }
      meter.note(p.rows, p.total, now);
      // Each table's end always; within a table, a line a second at most.
      if (!p.done && now - lastLine < PROGRESS_EVERY_MS) return;
      lastLine = now;
      ctx.io.err(`${p.table}: ${p.rows.toLocaleString('en')} of ${p.total.toLocaleString('en')} rows${p.done ? '' : ` …${etaWords(meter.etaSeconds(now))}`}`);
    };
    const summary = copyStore(from, to, { resume: flag(ctx, 'resume'), batchRows, onProgress });
    const seconds = (performance.now() - started) / 1000;
    ctx.io.err(`copied ${summary.rows.toLocaleString('en')} rows in ${summary.tables.length} tables${summary.resumed ? ` (${summary.copied_now.toLocaleString('en')} in this run, resumed)` : ''} from ${summary.from} to ${summary.to} in ${seconds.toFixed(1)} s`);
    if (ctx.json) ctx.io.out(JSON.stringify({ ...summary, seconds: Number(seconds.toFixed(3)) }));
  },
};
