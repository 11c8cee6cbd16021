/**
 * `mnemo profiles list|show|diff|save|delete|default <db> …`: scoring profiles as data. A profile
 * file is what `mnemo tune` writes: `{"name", "base", "knobs", "features"}`, the shape of
 * profileConfig(p) plus its name and the profile it started from (knobs and features may be a
 * subset: overrides on the base). Saving, deleting and setting the default are journalled changes
 * (`mnemo history`, `mnemo undo`).
 */
import { readFileSync, statSync } from 'node:fs';
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { describeIssues } from '../../core/model/schemas.js';
import { profileFileSchema, type ProfileFile } from '../../core/recall/profile-schema.js';
import type { ProfileDiffRow } from '../../core/recall/types.js';
import { requirePositional, str, type Command, type CommandContext } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';

const USAGE = `mnemo profiles list <db> [--json]
       mnemo profiles show <db> <name> [--json]
       mnemo profiles diff <db> <a> <b> [--json]
       mnemo profiles save <db> <name> --file <profile.json|-> [--base <profile>] [--now T] [--json]
       mnemo profiles delete <db> <name> [--now T] [--json]
       mnemo profiles default <db> <name> [--now T] [--json]`;
const usageOf = (sub: string) => USAGE.split('\n').find((l) => l.includes(`profiles ${sub} `))!.trim();

/** A profile file is about 1 KB; anything near this is not one. */
const MAX_PROFILE_FILE_BYTES = 64 * 1024;

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function diffTable(rows: ProfileDiffRow[], a: string, b: string): string {
  if (rows.length === 0) return '(no differences)';
  return table(rows.map((r) => ({ knob: r.key, [a]: show(r.a), [b]: show(r.b) })), ['knob', a, b]);
}

async function readProfileFile(ctx: CommandContext, file: string): Promise<ProfileFile> {
  if (file !== '-') {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw badInput(`cannot read --file ${JSON.stringify(file)}: no such file`, { field: 'file' });
    }
    if (size > MAX_PROFILE_FILE_BYTES) throw badInput(`--file ${JSON.stringify(file)} is ${size} bytes; a profile file is at most ${MAX_PROFILE_FILE_BYTES}`, { field: 'file' });
  }
  const text = file === '-' ? await ctx.io.readStdin!() : readFileSync(file, 'utf8');
  if (text.length > MAX_PROFILE_FILE_BYTES) throw badInput(`the profile is ${text.length} characters; a profile file is at most ${MAX_PROFILE_FILE_BYTES}`, { field: 'file' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw badInput(`--file is not JSON: ${err instanceof Error ? err.message : String(err)}`, { field: 'file' });
  }
  const parsed = profileFileSchema.safeParse(json);
  if (!parsed.success) throw badInput(`--file is not a profile file: ${describeIssues(parsed.error)}\nusage: ${usageOf('save')}`, { field: 'file' });
  return parsed.data;
}

async function withSession<T>(ctx: CommandContext, readonly: boolean, fn: (session: ReturnType<typeof openSession>) => Promise<T>): Promise<T> {
  const db = requirePositional(ctx, 1, 'db', USAGE);
  const session = openSession(ctx, db, { readonly });
  try {
    return await fn(session);
  } finally {
    session.close();
  }
}

const SUBCOMMANDS: Record<string, (ctx: CommandContext) => Promise<void>> = {
  list: (ctx) =>
    withSession(ctx, true, async (session) => {
      const rows = await call(session, 'profiles.list', {});
      if (ctx.json) return ctx.io.out(JSON.stringify(rows));
      ctx.io.out(
        table(
          rows.map((p) => ({ name: p.name, default: p.is_default ? '*' : '', kind: p.builtin ? 'built in' : 'saved', base: p.base ?? '', updated: isoTime(p.updated_at) })),
          ['name', 'default', 'kind', 'base', 'updated'],
        ),
      );
    }),
  show: (ctx) =>
    withSession(ctx, true, async (session) => {
      const name = requirePositional(ctx, 2, 'name', usageOf('show'));
      const p = await call(session, 'profiles.get', { name });
      if (ctx.json) return ctx.io.out(JSON.stringify(p));
      ctx.io.out(`${p.name}${p.is_default ? ' (the store default)' : ''}: ${p.builtin ? 'built in' : `saved, based on ${p.base}`}`);
      ctx.io.out(JSON.stringify({ name: p.name, base: p.base, ...p.config }, null, 2));
      if (!p.builtin) ctx.io.out(`against ${p.base}:\n${diffTable(p.diff_from_base, p.base ?? 'base', p.name)}`);
    }),
  diff: (ctx) =>
    withSession(ctx, true, async (session) => {
      const a = requirePositional(ctx, 2, 'a', usageOf('diff'));
      const b = requirePositional(ctx, 3, 'b', usageOf('diff'));
      const d = await call(session, 'profiles.diff', { a, b });
      if (ctx.json) return ctx.io.out(JSON.stringify(d));
      ctx.io.out(diffTable(d.rows, a, b));
    }),
  save: async (ctx) => {
    const file = str(ctx, 'file');
    if (!file) throw badInput(`missing --file <profile.json>\nusage: ${usageOf('save')}`, { field: 'file' });
    const name = requirePositional(ctx, 2, 'name', usageOf('save'));
    const profile = await readProfileFile(ctx, file);
    const base = str(ctx, 'base') ?? profile.base;
    await withSession(ctx, false, async (session) => {
      const r = await call(session, 'profiles.save', { knobs: profile.knobs, features: profile.features, name, ...(base !== undefined ? { base } : {}) });
      if (ctx.json) return ctx.io.out(JSON.stringify(r));
      ctx.io.out(`${r.replaced ? 'replaced' : 'saved'} profile ${r.name} (change #${r.change_id ?? '-'}; undo with "mnemo undo <db> ${r.change_id ?? ''}")`);
      ctx.io.out(`against ${r.base}:\n${diffTable(r.diff, r.base, r.name)}`);
    });
  },
  delete: (ctx) =>
    withSession(ctx, false, async (session) => {
      const r = await call(session, 'profiles.delete', { name: requirePositional(ctx, 2, 'name', usageOf('delete')) });
      if (ctx.json) return ctx.io.out(JSON.stringify(r));
      ctx.io.out(`deleted profile ${r.name} (change #${r.change_id ?? '-'})`);
    }),
  default: (ctx) =>
    withSession(ctx, false, async (session) => {
      const r = await call(session, 'profiles.setDefault', { name: requirePositional(ctx, 2, 'name', usageOf('default')) });
      if (ctx.json) return ctx.io.out(JSON.stringify(r));
      ctx.io.out(`the default profile is now ${r.name} (was ${r.previous}; change #${r.change_id ?? '-'})`);
    }),
};

export const profilesCommand: Command = {
  name: 'profiles',
  summary: 'list, show, compare, save, delete and set the default scoring profile (saved profiles are journalled)',
  usage: USAGE,
  timed: true,
  options: { file: { type: 'string' }, base: { type: 'string' } },
  async run(ctx) {
    const sub = ctx.positionals[0];
    const fn = sub === undefined ? undefined : Object.prototype.hasOwnProperty.call(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (!fn) throw badInput(`${sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`}; use list, show, diff, save, delete or default\nusage: ${USAGE}`);
    await fn(ctx);
  },
};
