import { ThroughputMeter } from '../../core/model/throughput.js';
import { etaWords } from '../long-write.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { badInput } from '../../core/errors.js';
import { exportJsonl, importJsonl, type ConflictPolicy } from '../../core/engine/jsonl.js';
import { flag, requirePositional, str, type Command } from '../command.js';
import { openSession } from '../session.js';

export const importCommand: Command = {
  name: 'import',
  summary: 'import memories from JSONL (one memory per line, with edges and access log); all or nothing',
  usage: 'mnemo import <db> <file.jsonl|-> [--on-conflict error|skip|replace] [--now T] [--json]',
  timed: true,
  options: { 'on-conflict': { type: 'string' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const file = requirePositional(ctx, 1, 'file', this.usage);
    const policy = (str(ctx, 'on-conflict') ?? 'error') as ConflictPolicy;
    if (!['error', 'skip', 'replace'].includes(policy)) throw badInput(`--on-conflict must be error, skip or replace, got ${JSON.stringify(policy)}`);
    let text: string;
    try {
      text = file === '-' ? await ctx.io.readStdin!() : readFileSync(file, 'utf8');
    } catch (err) {
      throw badInput(`cannot read ${file}: ${(err as Error).message}`);
    }
    const session = openSession(ctx, db, { create: true });
    // The time left at the pace of the last seconds' rows (the import writes one change, so an
    // interrupted one leaves nothing: its transaction is rolled back).
    const meter = new ThroughputMeter();
    try {
      const res = await importJsonl(session.engine(), text, {
        onConflict: policy,
        onProgress: (done, total) => {
          meter.note(done, total, performance.now());
          if (!ctx.json) ctx.io.err(`imported ${done}/${total}${etaWords(meter.etaSeconds(performance.now()))}`);
        },
      });
      const redacted = res.redacted ? `; redacted before storing: ${Object.entries(res.redacted).map(([kind, n]) => `${kind} ×${n}`).join(', ')}` : '';
      ctx.io.out(ctx.json ? JSON.stringify(res) : `imported ${res.imported} memories${res.skipped ? `, skipped ${res.skipped}` : ''} (change #${res.change_id ?? '-'})${redacted}`);
    } finally {
      session.close();
    }
  },
};

export const exportCommand: Command = {
  name: 'export',
  summary: 'export memories as JSONL (to a file or standard output)',
  usage: 'mnemo export <db> [--out file.jsonl] [--live-only] [--with-embeddings]',
  options: { out: { type: 'string' }, 'live-only': { type: 'boolean' }, 'with-embeddings': { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const lines = [...exportJsonl(session.engine(), { includeArchived: !flag(ctx, 'live-only'), withEmbeddings: flag(ctx, 'with-embeddings') })];
      const out = str(ctx, 'out');
      if (out) {
        writeFileSync(out, lines.length ? `${lines.join('\n')}\n` : '');
        ctx.io.err(`exported ${lines.length} memories to ${out}`);
      } else {
        for (const l of lines) ctx.io.out(l);
      }
    } finally {
      session.close();
    }
  },
};
