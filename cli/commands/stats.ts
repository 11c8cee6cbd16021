/** `mnemo stats`: nooa's store KPIs, rows against reads per type, and (with --usage) the per-memory usage panel. */
import { call } from '../../core/api/service.js';
import { requirePositional, str, strs, type Command } from '../command.js';
import { table } from '../format.js';
import { openSession } from '../session.js';

export const statsCommand: Command = {
  name: 'stats',
  summary: 'store KPIs (as nooa computes them), rows vs reads per type, per-memory usage with --usage ID',
  usage: 'mnemo stats <db> [--owner SCOPE] [--usage ID]... [--now T] [--json]',
  timed: true,
  options: { owner: { type: 'string' }, usage: { type: 'string', multiple: true } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const owner = str(ctx, 'owner');
      const scope = owner === undefined ? {} : { owner };
      const kpis = await call(session, 'stats.kpis', scope);
      const rvr = await call(session, 'stats.rowsVsReads', scope);
      const ids = strs(ctx, 'usage');
      const usage = ids.length ? (await call(session, 'stats.usage', { ids })).rows : undefined;
      if (ctx.json) {
        ctx.io.out(JSON.stringify({ kpis, rows_vs_reads: rvr, ...(usage ? { usage } : {}) }));
        return;
      }
      const { maintenance, by_type, by_owner, ...scalars } = kpis;
      ctx.io.out(table(Object.entries(scalars).map(([k, v]) => ({ kpi: k, value: v })), ['kpi', 'value']));
      if (by_type) ctx.io.out(`by type: ${Object.entries(by_type).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      if (by_owner) ctx.io.out(`by owner: ${Object.entries(by_owner).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      ctx.io.out(`maintenance rows: ${maintenance.length}`);
      ctx.io.out('');
      ctx.io.out(
        table(
          rvr.rows.map((r) => ({ type: r.type, rows: r.rows, 'rows %': (100 * r.row_share).toFixed(1), reads: r.reads, 'reads %': (100 * r.read_share).toFixed(1), ratio: r.read_ratio === null ? '' : r.read_ratio.toFixed(2) })),
          ['type', 'rows', 'rows %', 'reads', 'reads %', 'ratio'],
        ),
      );
      for (const u of usage ?? []) ctx.io.out(`\n${JSON.stringify(u, null, 2)}`);
    } finally {
      session.close();
    }
  },
};
