/** `mnemo recall|search|explain`: the recall pipeline from the shell (explain is a dry run). */
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import type { ExplainResult, ExplainRow, WhyNotResult } from '../../core/recall/types.js';
import { intOpt, str, type Command, type CommandContext } from '../command.js';
import { table } from '../format.js';
import { openSession } from '../session.js';

const OPTIONS = {
  k: { type: 'string' },
  hops: { type: 'string' },
  owner: { type: 'string' },
  reader: { type: 'string' },
  profile: { type: 'string' },
  'include-superseded': { type: 'boolean' },
} as const;

interface Parsed {
  db: string;
  input: Record<string, unknown>;
}

function parse(ctx: CommandContext, usage: string, withHops: boolean): Parsed {
  const [db, ...words] = ctx.positionals;
  if (!db) throw badInput(`missing <db>\nusage: ${usage}`);
  if (words.length === 0) throw badInput(`missing <query> (quote it; an empty string is allowed)\nusage: ${usage}`);
  const input: Record<string, unknown> = { query: words.join(' '), k: intOpt(ctx, 'k', 10, [1, 1000]) };
  if (withHops && str(ctx, 'hops') !== undefined) input['hops'] = intOpt(ctx, 'hops', 1, [0, 4]);
  if (str(ctx, 'owner') !== undefined) input['owner'] = str(ctx, 'owner');
  if (str(ctx, 'profile') !== undefined) input['profile'] = str(ctx, 'profile');
  if (ctx.values['include-superseded'] === true) input['include_superseded'] = true;
  return { db, input };
}

/** The term columns a profile has, in the order they add up: score = the sum of the `+` columns. */
function termColumns(rows: readonly ExplainRow[]): string[] {
  const first = rows[0];
  return first ? Object.keys(first.terms).map((k) => `+${k}`) : ['+rel', '+rec', '+imp', '+spread'];
}

function printRows(ctx: CommandContext, res: ExplainResult): void {
  const terms = termColumns(res.rows);
  // Ranks are shown 1-based (#1 is the top); --json keeps nooa's 0-based `rank`.
  ctx.io.out(
    table(
      res.rows.map((r: ExplainRow) => ({
        '#': `#${r.rank + 1}`,
        id: r.id.slice(0, 8),
        score: r.score,
        ...Object.fromEntries(Object.entries(r.terms).map(([k, v]) => [`+${k}`, v])),
        source: r.source,
        cos: r.cos,
        type: r.type,
        owner: r.owner,
        head: r.superseded_by ? `[superseded by ${r.superseded_by.slice(0, 8)}] ${r.head}` : r.head,
      })),
      ['#', 'id', 'score', ...terms, 'source', 'cos', 'type', 'owner', 'head'],
    ),
  );
  ctx.io.out(`score = ${terms.join(' ')} (each term already weighted)`);
  ctx.io.out(
    `${res.rows.length} of ${res.stats.ranked} ranked (${res.stats.candidates} candidates, ${res.stats.spread_only} reached by spread); profile ${res.profile}, hops ${res.hops}, scope ${res.owner ?? '*'}`,
  );
  if (res.superseded_excluded > 0) ctx.io.out(`${res.superseded_excluded} superseded ${res.superseded_excluded === 1 ? 'memory' : 'memories'} left out (--include-superseded ranks them, marked)`);
}

function printWhyNot(ctx: CommandContext, w: WhyNotResult): void {
  ctx.io.out(`${w.target}: ${w.status}${w.rank !== null ? ` (#${w.rank + 1} of ${w.ranked})` : ''}`);
  for (const line of w.explanation) ctx.io.out(`  ${line}`);
  const t = w.terms;
  const sum = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(' + ');
  ctx.io.out(`  score ${t.score.toFixed(4)} = ${sum({ ...w.contributions })} (source ${t.source}, cos ${t.cos.toFixed(4)})`);
  if (w.kth) ctx.io.out(`  #${w.kth.rank + 1} ${w.kth.id.slice(0, 8)} (the cut) ${w.kth.score.toFixed(4)} = ${sum({ ...w.kth.terms })}`);
  if (w.margin !== null) ctx.io.out(`  margin to #${w.k}: ${w.margin.toFixed(4)}`);
}

function readCommand(name: 'recall' | 'search', method: 'recall.run' | 'recall.search', summary: string): Command {
  const usage = `mnemo ${name} <db> <query> [--k N]${name === 'recall' ? ' [--hops H]' : ''} [--owner SCOPE] [--reader OWNER] [--profile nooa-0.0.9|mnemo|<saved>] [--include-superseded] [--now T] [--json]`;
  return {
    name,
    summary,
    usage,
    timed: true,
    options: OPTIONS,
    async run(ctx) {
      const { db, input } = parse(ctx, usage, name === 'recall');
      if (name === 'search') delete input['hops'];
      const session = openSession(ctx, db, { reader: str(ctx, 'reader') ?? 'cli' });
      try {
        const res = await call(session, method, input);
        if (ctx.json) ctx.io.out(JSON.stringify(res.rows));
        else {
          printRows(ctx, res);
          ctx.io.out(`logged ${res.logged} ${res.channel} access${res.logged === 1 ? '' : 'es'}`);
        }
      } finally {
        session.close();
      }
    },
  };
}

export const recallCommand = readCommand('recall', 'recall.run', 'recall memories (touching: logs a recalled access per result)');
export const searchCommand = readCommand('search', 'recall.search', 'search memories without spread (touching: logs a searched access per result)');

const explainUsage = 'mnemo explain <db> <query> [--k N] [--hops H] [--owner SCOPE] [--target ID] [--profile nooa-0.0.9|mnemo|<saved>] [--include-superseded] [--now T] [--json]';
export const explainCommand: Command = {
  name: 'explain',
  summary: 'dry-run recall: every term of every ranked row; --target shows why a memory is (not) in the top k',
  usage: explainUsage,
  timed: true,
  options: { ...OPTIONS, target: { type: 'string' } },
  async run(ctx) {
    const { db, input } = parse(ctx, explainUsage, true);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const target = str(ctx, 'target');
      if (target !== undefined) {
        const w = await call(session, 'recall.whyNot', { ...input, target });
        if (ctx.json) ctx.io.out(JSON.stringify(w));
        else printWhyNot(ctx, w);
        return;
      }
      const res = await call(session, 'recall.explain', input);
      if (ctx.json) ctx.io.out(JSON.stringify(res.rows));
      else printRows(ctx, res);
    } finally {
      session.close();
    }
  },
};
