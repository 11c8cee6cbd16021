/**
 * `mnemo beliefs <observe|ingest|get|answer|aliases|retrieve> …`: the belief layer from the shell.
 * Every subcommand goes through core/api, like every other door.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { BELIEF_PROFILES, type BeliefProfile } from '../../core/beliefs/config.js';
import { parseQueriesJsonl } from '../../core/beliefs/answer.js';
import { flag, numOpt, requirePositional, str, strs, type Command, type CommandContext } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';

const USAGE = `mnemo beliefs observe <db> <entity> <attribute> <value> [--t T] [--reliability R] [--evidence TEXT] [--source S] [--memory ID] [--now T] [--json]
       mnemo beliefs ingest <db> <observations.jsonl|-> [--profile paper|nous-code] [--now T] [--json]
       mnemo beliefs get <db> <entity> <attribute> [--at T] [--mode as-of|hindsight] [--now T] [--json]
       mnemo beliefs answer <db> <queries.jsonl|-> [--mode hindsight|as-of] [--out answers.jsonl]
       mnemo beliefs aliases <db> [--apply] [--reject "A=B"]... [--at T] [--now T] [--json]
       mnemo beliefs retrieve <db> <question> [--at T] [--hops N] [--now T] [--json]`;

async function readText(ctx: CommandContext, file: string): Promise<string> {
  try {
    return file === '-' ? await ctx.io.readStdin!() : readFileSync(file, 'utf8');
  } catch (err) {
    throw badInput(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * `get` defaults to as-of (what the agent believed at T: time travel). `answer` runs after the whole
 * stream is in, so it defaults to hindsight (what the agent now believes was true at T: the
 * bi-temporal valid-time reading); `--mode as-of` gives the belief held at T instead.
 */
function mode(ctx: CommandContext, fallback: 'as-of' | 'hindsight' = 'as-of'): 'as-of' | 'hindsight' {
  const m = str(ctx, 'mode') ?? fallback;
  if (m !== 'as-of' && m !== 'hindsight') throw badInput(`--mode must be as-of or hindsight, got ${JSON.stringify(m)}`);
  return m;
}

const pct = (p: number) => `${(p * 100).toFixed(1)}%`;

async function observe(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[0]!;
  const [db, entity, attribute, value] = [1, 2, 3, 4].map((i, k) => requirePositional(ctx, i, ['db', 'entity', 'attribute', 'value'][k]!, usage));
  const session = openSession(ctx, db!, { create: true });
  try {
    const observation: Record<string, unknown> = { entity, attribute, value, t: numOpt(ctx, 't') ?? ctx.clock.now() };
    const r = numOpt(ctx, 'reliability');
    if (r !== undefined) observation['reliability'] = r;
    if (str(ctx, 'evidence') !== undefined) observation['evidence'] = str(ctx, 'evidence');
    if (str(ctx, 'source') !== undefined) observation['source'] = str(ctx, 'source');
    if (str(ctx, 'memory') !== undefined) observation['memory_id'] = str(ctx, 'memory');
    const d = await call(session, 'beliefs.observe', { observation });
    ctx.io.out(
      ctx.json
        ? JSON.stringify(d)
        : `delta #${d.id}: ${d.entity}.${d.attribute} = ${d.value}  surprise ${d.surprise.toFixed(2)} bits  mode ${d.mode_before ?? '-'} → ${d.mode_after ?? '-'}`,
    );
  } finally {
    session.close();
  }
}

async function ingest(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[1]!.trim();
  const db = requirePositional(ctx, 1, 'db', usage);
  const file = requirePositional(ctx, 2, 'observations.jsonl', usage);
  const text = await readText(ctx, file);
  const created = db !== ':memory:' && !existsSync(db);
  const session = openSession(ctx, db, { create: true });
  try {
    const profile = str(ctx, 'profile');
    if (profile !== undefined) {
      if (!BELIEF_PROFILES.includes(profile as BeliefProfile)) throw badInput(`--profile must be one of ${BELIEF_PROFILES.join(', ')}, got ${JSON.stringify(profile)}`);
      await call(session, 'beliefs.configure', { profile });
    }
    const started = performance.now();
    const r = await call(session, 'beliefs.ingest', { jsonl: text });
    const ms = performance.now() - started;
    ctx.io.out(
      ctx.json
        ? JSON.stringify({ ...r, ms: Math.round(ms) })
        : `ingested ${r.ingested} observations into ${r.dimensions_touched} dimensions in ${(ms / 1000).toFixed(2)} s${r.replayed_dimensions ? ` (${r.replayed_dimensions} replayed for late observations)` : ''}`,
    );
  } catch (err) {
    // The ingest rolled back; a store file this command created must not stay behind either.
    session.close();
    if (created) for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    throw err;
  } finally {
    session.close();
  }
}

async function get(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[2]!.trim();
  const db = requirePositional(ctx, 1, 'db', usage);
  const entity = requirePositional(ctx, 2, 'entity', usage);
  const attribute = requirePositional(ctx, 3, 'attribute', usage);
  const session = openSession(ctx, db, { readonly: true });
  try {
    const at = numOpt(ctx, 'at');
    const r = await call(session, 'beliefs.get', { entity, attribute, mode: mode(ctx), ...(at !== undefined ? { at } : {}) });
    if (ctx.json) {
      ctx.io.out(JSON.stringify(r));
      return;
    }
    const b = r.belief;
    ctx.io.out(
      [
        `${b.entity}.${b.attribute} ${b.mode} ${isoTime(b.at)}: ${b.value ?? '(nothing observed)'}${b.value ? ` (${pct(b.p)})` : ''}`,
        `entropy ${b.entropy.toFixed(3)} of ${b.max_entropy.toFixed(3)} bits${b.calibrated ? ` (calibrated; the model's own ${b.entropy_model.toFixed(3)})` : ''}; ${b.deltas} deltas; observed values: ${b.values.join(', ') || '-'}`,
        table(b.distribution.map((v) => ({ value: v.value, p: v.p })), ['value', 'p']),
        '',
        table(
          r.deltas.map((d) => ({ id: d.id, t: isoTime(d.t), value: d.value, r: d.reliability, surprise: d.surprise, moved: d.moved ? `${d.mode_before ?? '-'}→${d.mode_after}` : '', memory: d.memory_id ?? '' })),
          ['id', 't', 'value', 'r', 'surprise', 'moved', 'memory'],
        ),
      ].join('\n'),
    );
  } finally {
    session.close();
  }
}

async function answer(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[3]!.trim();
  const db = requirePositional(ctx, 1, 'db', usage);
  const file = requirePositional(ctx, 2, 'queries.jsonl', usage);
  const queries = parseQueriesJsonl(await readText(ctx, file));
  const session = openSession(ctx, db, { readonly: true });
  try {
    const { answers } = await call(session, 'beliefs.answer', { queries, mode: mode(ctx, 'hindsight') });
    const lines = answers.map((a) => JSON.stringify(a));
    const out = str(ctx, 'out');
    if (out) {
      writeFileSync(out, lines.length ? `${lines.join('\n')}\n` : '');
      ctx.io.err(`wrote ${lines.length} answers to ${out}`);
    } else {
      for (const l of lines) ctx.io.out(l);
    }
  } finally {
    session.close();
  }
}

async function aliases(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[4]!.trim();
  const db = requirePositional(ctx, 1, 'db', usage);
  const rejects = strs(ctx, 'reject').map((r) => {
    const i = r.indexOf('=');
    if (i <= 0 || i === r.length - 1) throw badInput(`--reject takes "A=B" (two entity names), got ${JSON.stringify(r)}`);
    return { a: r.slice(0, i).trim(), b: r.slice(i + 1).trim() };
  });
  const apply = flag(ctx, 'apply');
  const session = openSession(ctx, db, { readonly: !apply && rejects.length === 0 });
  try {
    for (const r of rejects) await call(session, 'beliefs.aliases.reject', r);
    const at = numOpt(ctx, 'at');
    const plan = await call(session, 'beliefs.aliases.plan', at !== undefined ? { at } : {});
    let applied: { change_id: number | null; merged: { alias: string; canonical: string }[] } | null = null;
    if (apply && plan.proposals.length) {
      applied = await call(session, 'beliefs.aliases.apply', {
        basis: plan.basis,
        merges: plan.proposals.map((p) => ({ alias: p.alias, canonical: p.canonical, divergence: p.divergence, shared: p.shared.length })),
      });
    }
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ plan, applied }));
      return;
    }
    ctx.io.out(
      [
        `${plan.proposals.length} alias proposal(s) (mean symmetrised KL ≤ ${plan.threshold_bits_per_attribute} bit per shared attribute, ≥ ${plan.min_overlap} shared):`,
        table(
          plan.proposals.map((p) => ({ alias: p.alias, canonical: p.canonical, bits_per_attr: p.divergence_per_attribute, shared: p.shared.length, names: p.name_relation })),
          ['alias', 'canonical', 'bits_per_attr', 'shared', 'names'],
        ),
        applied ? `applied ${applied.merged.length} merge(s) as change #${applied.change_id ?? '-'} (undo it with the journal)` : apply ? 'nothing to apply' : 'pass --apply to merge them',
      ].join('\n'),
    );
  } finally {
    session.close();
  }
}

async function retrieveCmd(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[5]!.trim();
  const db = requirePositional(ctx, 1, 'db', usage);
  const question = requirePositional(ctx, 2, 'question', usage);
  const session = openSession(ctx, db, { readonly: true });
  try {
    const at = numOpt(ctx, 'at');
    const hops = numOpt(ctx, 'hops');
    const r = await call(session, 'beliefs.retrieve', { query: question, ...(at !== undefined ? { at } : {}), ...(hops !== undefined ? { hops } : {}) });
    ctx.io.out(ctx.json ? JSON.stringify(r) : r.lines.join('\n') || '(nothing found)');
  } finally {
    session.close();
  }
}

const SUBCOMMANDS: Record<string, (ctx: CommandContext) => Promise<void>> = { observe, ingest, get, answer, aliases, retrieve: retrieveCmd };

export const beliefsCommand: Command = {
  name: 'beliefs',
  summary: 'the belief layer: observe, ingest, get (time travel), answer queries, merge aliases, retrieve facts',
  usage: USAGE,
  timed: true,
  options: {
    t: { type: 'string' },
    reliability: { type: 'string' },
    evidence: { type: 'string' },
    source: { type: 'string' },
    memory: { type: 'string' },
    profile: { type: 'string' },
    at: { type: 'string' },
    mode: { type: 'string' },
    out: { type: 'string' },
    apply: { type: 'boolean' },
    reject: { type: 'string', multiple: true },
    hops: { type: 'string' },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    const fn = sub === undefined ? undefined : SUBCOMMANDS[sub];
    if (!fn) throw badInput(`${sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`}\nusage: ${USAGE}`);
    await fn(ctx);
  },
};
