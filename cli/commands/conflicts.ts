/**
 * `mnemo conflicts`: the conflict queue from the shell (list, resolve, flag), through core/api like
 * every other door. Each resolution is one journalled change: `mnemo undo <db> <change>` takes it back.
 */
import { call } from '../../core/api/service.js';
import type { ConflictItem, RecallToday } from '../../core/api/contract/review.js';
import { badInput } from '../../core/errors.js';
import { flag, intOpt, requirePositional, str, strs, type Command, type CommandContext } from '../command.js';
import { isoTime } from '../format.js';
import { openSession } from '../session.js';
import type { ApiSession } from '../../core/api/context.js';

const USAGE = `mnemo conflicts <db> [--limit N] [--offset N] [--kind contradicts|value|belief]... [--owner SCOPE] [--no-recall] [--now T] [--json]
       mnemo conflicts resolve <db> --current B --superseded A     (B holds; A stays, superseded, out of default recall)
       mnemo conflicts resolve <db> --wrong A                      (A is wrong: forget it, with a tombstone)
       mnemo conflicts resolve <db> --both-hold A B                (both hold, in different contexts: the pair leaves the queue)
       mnemo conflicts resolve <db> --merge A B --survivor A       (merge them)
       mnemo conflicts resolve <db> --assert --entity E --attribute K --value V   (a curator's observation, reliability 1)
       mnemo conflicts resolve <db> --reject-observation ID        (a belief observation stops counting)
       mnemo conflicts flag <db> A B [--note TEXT]                 (A contradicts B)
Every resolution is one change: undo it with "mnemo undo <db> <change>".`;

const KINDS = ['contradicts', 'value', 'belief'] as const;
const pct = (p: number) => `${(p * 100).toFixed(0)}%`;
const short = (id: string) => id.slice(0, 8);

function describe(item: ConflictItem, i: number, recall: RecallToday | null): string[] {
  const head = `#${i} ${item.kind.padEnd(11)} harm ${item.harm.toFixed(3)}  (p wrong ${pct(item.p_wrong)} × ${item.uses + 1} uses)`;
  if (item.kind === 'belief') {
    const b = item.belief!;
    const others = b.alternatives.map((a) => `${a.value} ${pct(a.p)}`).join(', ');
    return [
      head,
      `   ${item.entity} · ${item.attribute}: ${b.value ?? '—'} at ${pct(b.p)}${others ? `  (against ${others})` : ''}`,
      ...b.reports.slice(0, 4).map((r) => `     report #${r.delta_id} ${isoTime(r.t)} ${r.value}  reliability ${r.reliability ?? '—'}  source ${r.source || '—'}`),
    ];
  }
  const lines = [head];
  item.sides!.forEach((s, k) => {
    lines.push(`   ${k === 0 ? 'A' : 'B'} ${short(s.id)}  ${s.owner || '(shared)'}  ${isoTime(s.created_at)}  source ${s.source ?? '—'}  used ${s.recalled + s.injected}×`);
    lines.push(`     ${s.head}`);
  });
  if (item.spans?.length) lines.push(`   differs in: ${item.spans.map((s) => `${s.a} / ${s.b} (${s.kind})`).join('; ')}`);
  if (item.note) lines.push(`   flagged${item.note.owner ? ` by ${item.note.owner}` : ''}: ${item.note.note}`);
  if (recall) {
    const where = recall.places.map((p) => `${short(p.id)} ${p.rank === null ? (p.left_out ? 'left out (superseded)' : `not in the top ${recall.k}`) : `#${p.rank}`}`).join(', ');
    lines.push(`   recall today for "${recall.query.slice(0, 60)}": ${where}${recall.first ? `; first: ${short(recall.first)}` : ''}`);
  }
  return lines;
}

async function list(ctx: CommandContext): Promise<void> {
  const db = requirePositional(ctx, 0, 'db', USAGE);
  const kinds = strs(ctx, 'kind');
  for (const k of kinds) if (!KINDS.includes(k as (typeof KINDS)[number])) throw badInput(`--kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(k)}`);
  const session = openSession(ctx, db, { readonly: true });
  try {
    const page = await call(session, 'review.conflicts', {
      limit: intOpt(ctx, 'limit', 20, [1, 500]),
      offset: intOpt(ctx, 'offset', 0, [0, 10_000_000]),
      ...(kinds.length ? { kinds: kinds as (typeof KINDS)[number][] } : {}),
      ...(str(ctx, 'owner') !== undefined ? { owner: str(ctx, 'owner') } : {}),
    });
    const recalls = flag(ctx, 'no-recall') ? page.items.map(() => null) : await Promise.all(page.items.map((item) => recallOf(session, item, str(ctx, 'owner'))));
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ ...page, items: page.items.map((item, i) => ({ ...item, ...(recalls[i] ? { recall: recalls[i] } : {}) })) }));
      return;
    }
    ctx.io.out(
      `${page.total} in the queue (${KINDS.map((k) => `${page.by_kind[k]} ${k}`).join(', ')}) over ${page.scanned.toLocaleString('en-US')} memories; ${page.settled} pairs settled as both holding`,
    );
    page.items.forEach((item, i) => ctx.io.out(describe(item, i + 1 + intOpt(ctx, 'offset', 0), recalls[i] ?? null).join('\n')));
  } finally {
    session.close();
  }
}

function recallOf(session: ApiSession, item: ConflictItem, owner: string | undefined): Promise<RecallToday | null> {
  if (!item.ids || !item.query?.trim()) return Promise.resolve(null);
  return call(session, 'review.conflictRecall', { query: item.query, ids: item.ids, ...(owner !== undefined ? { owner } : {}) });
}

async function resolve(ctx: CommandContext): Promise<void> {
  const db = requirePositional(ctx, 1, 'db', USAGE);
  const rest = ctx.positionals.slice(2);
  let input: Parameters<typeof call<'review.resolve'>>[2];
  if (str(ctx, 'current') !== undefined || str(ctx, 'superseded') !== undefined) {
    const current = str(ctx, 'current');
    const superseded = str(ctx, 'superseded');
    if (!current || !superseded) throw badInput(`--current B and --superseded A go together\nusage: ${USAGE}`);
    input = { do: 'supersede', current, superseded };
  } else if (str(ctx, 'wrong') !== undefined) input = { do: 'forget', wrong: str(ctx, 'wrong')! };
  else if (flag(ctx, 'both-hold')) {
    if (rest.length !== 2) throw badInput(`--both-hold takes two ids: A B\nusage: ${USAGE}`);
    input = { do: 'both_hold', ids: [rest[0]!, rest[1]!] };
  } else if (flag(ctx, 'merge')) {
    const survivor = str(ctx, 'survivor');
    if (rest.length !== 2 || !survivor) throw badInput(`--merge takes two ids and --survivor\nusage: ${USAGE}`);
    input = { do: 'merge', ids: [rest[0]!, rest[1]!], survivor };
  } else if (flag(ctx, 'assert')) {
    const [entity, attribute, value] = ['entity', 'attribute', 'value'].map((k) => str(ctx, k));
    if (!entity || !attribute || !value) throw badInput(`--assert needs --entity, --attribute and --value\nusage: ${USAGE}`);
    input = { do: 'assert', entity, attribute, value };
  } else if (str(ctx, 'reject-observation') !== undefined) {
    input = { do: 'reject', delta_id: intOpt(ctx, 'reject-observation', 0, [1, Number.MAX_SAFE_INTEGER]) };
  } else throw badInput(`say how to resolve it\nusage: ${USAGE}`);
  const session = openSession(ctx, db);
  try {
    const res = await call(session, 'review.resolve', input);
    const what =
      res.do === 'supersede'
        ? `${short(res.ids[0]!)} superseded by ${short(res.ids[1]!)}`
        : res.do === 'forget'
          ? `forgot ${short(res.ids[0]!)} (tombstoned)`
          : res.do === 'both_hold'
            ? `${short(res.ids[0]!)} and ${short(res.ids[1]!)} both hold; the pair leaves the queue`
            : res.do === 'merge'
              ? `merged ${short(res.ids[0]!)} and ${short(res.ids[1]!)}`
              : res.do === 'assert'
                ? `asserted ${res.entity} ${res.attribute} (observation #${res.delta_id})`
                : `rejected observation #${res.delta_id} of ${res.entity} ${res.attribute}`;
    ctx.io.out(ctx.json ? JSON.stringify(res) : `${what} (change #${res.change_id ?? '-'}; undo with "mnemo undo ${db} ${res.change_id ?? ''}")`);
  } finally {
    session.close();
  }
}

async function flagPair(ctx: CommandContext): Promise<void> {
  const db = requirePositional(ctx, 1, 'db', USAGE);
  const a = requirePositional(ctx, 2, 'A', USAGE);
  const b = requirePositional(ctx, 3, 'B', USAGE);
  const session = openSession(ctx, db);
  try {
    const res = await call(session, 'review.flag', { a_id: a, b_id: b, note: str(ctx, 'note') ?? '' });
    ctx.io.out(ctx.json ? JSON.stringify(res) : `${short(res.src)} -contradicts-> ${short(res.dst)}${res.changed ? '' : ' (already linked; note kept)'} (change #${res.change_id ?? '-'})`);
  } finally {
    session.close();
  }
}

export const conflictsCommand: Command = {
  name: 'conflicts',
  summary: 'the conflict queue: contradicting memories and doubted beliefs, most harmful first; resolve or flag them (undoable)',
  usage: USAGE,
  timed: true,
  options: {
    limit: { type: 'string' },
    offset: { type: 'string' },
    kind: { type: 'string', multiple: true },
    owner: { type: 'string' },
    'no-recall': { type: 'boolean' },
    current: { type: 'string' },
    superseded: { type: 'string' },
    wrong: { type: 'string' },
    'both-hold': { type: 'boolean' },
    merge: { type: 'boolean' },
    survivor: { type: 'string' },
    assert: { type: 'boolean' },
    entity: { type: 'string' },
    attribute: { type: 'string' },
    value: { type: 'string' },
    'reject-observation': { type: 'string' },
    note: { type: 'string' },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    if (sub === 'resolve') return resolve(ctx);
    if (sub === 'flag') return flagPair(ctx);
    return list(ctx);
  },
};
