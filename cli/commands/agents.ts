/**
 * `mnemo agents add|list|revoke <db> …`: the credentials remote agents connect with. A token is
 * printed once, by `add`; the store keeps only its hash. With --json, `add` prints exactly
 * {"owner","token"} (the credential's id goes to stderr and to `list`).
 */
import { z } from 'zod';
import { issueCredential, listCredentials, revokeCredentials, type AgentCredential, type CredentialScope } from '../../core/agent/credentials.js';
import { badInput } from '../../core/errors.js';
import { ownerProblem } from '../../core/model/owner.js';
import { describeIssues } from '../../core/model/schemas.js';
import { flag, requirePositional, str, type Command, type CommandContext } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';

const USAGE = `mnemo agents add <db> <role@instance> [--read-only] [--no-reflect] [--label L] [--now T] [--json]
       mnemo agents list <db> [--json]
       mnemo agents revoke <db> <id|role@instance> [--now T] [--json]`;

const agentOwner = z
  .string()
  .refine((o) => o.includes('@') && ownerProblem(o) === null, { message: 'must be role@instance (e.g. coder@laptop), without "%" or "_": each agent instance gets its own credential' });

const addInput = z.object({
  owner: agentOwner,
  label: z.string().trim().min(1, 'give a non-empty label or leave --label out').max(200, 'keep the label under 200 characters').optional(),
  read_only: z.boolean(),
  no_reflect: z.boolean(),
});

const revokeTarget = z.object({
  target: z.union([z.string().regex(/^[0-9a-f]{12}$/), agentOwner], { error: 'give a credential id from "mnemo agents list" (12 hex digits) or the agent\'s role@instance' }),
});

function parse<T>(schema: z.ZodType<T>, value: unknown, usage: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw badInput(`${describeIssues(r.error)}\nusage: ${usage}`);
  return r.data;
}

const scopesText = (c: AgentCredential) => (c.scopes.length ? c.scopes.join(', ') : 'full');

async function add(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[0]!;
  const db = requirePositional(ctx, 1, 'db', usage);
  const input = parse(addInput, { owner: requirePositional(ctx, 2, 'role@instance', usage), label: str(ctx, 'label'), read_only: flag(ctx, 'read-only'), no_reflect: flag(ctx, 'no-reflect') }, usage);
  const scopes: CredentialScope[] = [...(input.read_only ? (['read-only'] as const) : []), ...(input.no_reflect ? (['no-reflect'] as const) : [])];
  const session = openSession(ctx, db);
  try {
    const { credential, token } = issueCredential(session.engine(), { owner: input.owner, scopes, label: input.label ?? null }, ctx.clock);
    const about = `credential ${credential.id} for ${credential.owner} (scopes: ${scopesText(credential)}); revoke it with "mnemo agents revoke ${db} ${credential.id}"`;
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ owner: credential.owner, token }));
      ctx.io.err(about);
      return;
    }
    ctx.io.out(token);
    ctx.io.err(about);
    ctx.io.err('This token is shown once: the store keeps only its hash. Give it to the agent as "Authorization: Bearer <token>".');
  } finally {
    session.close();
  }
}

async function list(ctx: CommandContext): Promise<void> {
  const db = requirePositional(ctx, 1, 'db', USAGE.split('\n')[1]!);
  const session = openSession(ctx, db, { readonly: true });
  try {
    const rows = listCredentials(session.engine().store);
    if (ctx.json) {
      ctx.io.out(JSON.stringify(rows));
      return;
    }
    ctx.io.out(
      table(
        rows.map((c) => ({
          id: c.id,
          owner: c.owner,
          scopes: scopesText(c),
          label: c.label ?? '',
          created: isoTime(c.created_at),
          revoked: isoTime(c.revoked_at),
          'last used': isoTime(c.last_used),
          accesses: c.accesses,
          changes: c.changes,
        })),
        ['id', 'owner', 'scopes', 'label', 'created', 'revoked', 'last used', 'accesses', 'changes'],
      ),
    );
  } finally {
    session.close();
  }
}

async function revoke(ctx: CommandContext): Promise<void> {
  const usage = USAGE.split('\n')[2]!;
  const db = requirePositional(ctx, 1, 'db', usage);
  const { target } = parse(revokeTarget, { target: requirePositional(ctx, 2, 'id|role@instance', usage) }, usage);
  const session = openSession(ctx, db);
  try {
    const revoked = revokeCredentials(session.engine(), target, ctx.clock);
    if (ctx.json) {
      ctx.io.out(JSON.stringify({ revoked }));
      return;
    }
    for (const c of revoked) ctx.io.out(`revoked credential ${c.id} of ${c.owner}${c.label ? ` (${c.label})` : ''} at ${isoTime(c.revoked_at)}`);
  } finally {
    session.close();
  }
}

const SUBCOMMANDS: Record<string, (ctx: CommandContext) => Promise<void>> = { add, list, revoke };

export const agentsCommand: Command = {
  name: 'agents',
  summary: 'issue, list and revoke the bearer tokens remote agents connect with',
  usage: USAGE,
  timed: true,
  options: {
    'read-only': { type: 'boolean' },
    'no-reflect': { type: 'boolean' },
    label: { type: 'string' },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    const fn = sub === undefined ? undefined : SUBCOMMANDS[sub];
    if (!fn) throw badInput(`${sub === undefined ? 'missing subcommand' : `unknown subcommand ${JSON.stringify(sub)}`}; use add, list or revoke\nusage: ${USAGE}`);
    await fn(ctx);
  },
};
