/**
 * `mnemo pg grant <role@instance> <postgres-url>`: a database role for one agent, held to the owner
 * rule by row-level security (docs/postgres.md). The generated password is printed once.
 */
import { badInput } from '../../core/errors.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { flag, requirePositional, type Command } from '../command.js';

const USAGE = 'mnemo pg grant <role@instance> <postgres://user@host/db?schema=name> [--password-stdin] [--json]';

export const pgCommand: Command = {
  name: 'pg',
  summary: 'PostgreSQL stores: `pg grant` makes a login role for one agent, held to its owner by row-level security',
  usage: USAGE,
  options: { 'password-stdin': { type: 'boolean' } },
  async run(ctx) {
    const sub = requirePositional(ctx, 0, 'subcommand', USAGE);
    if (sub !== 'grant') throw badInput(`unknown subcommand ${JSON.stringify(sub)}; usage: ${USAGE}`);
    const owner = requirePositional(ctx, 1, 'role@instance', USAGE);
    const url = requirePositional(ctx, 2, 'postgres-url', USAGE);
    let password: string | undefined;
    if (flag(ctx, 'password-stdin')) {
      if (!ctx.io.readStdin) throw badInput('--password-stdin needs standard input');
      password = await ctx.io.readStdin();
    }
    const granted = grantAgent(url, owner, password);
    for (const w of granted.warnings) ctx.io.err(`warning: ${w}`);
    if (ctx.json) {
      ctx.io.out(JSON.stringify(granted));
      return;
    }
    ctx.io.out(`${granted.existed ? 'updated' : 'created'} role ${granted.role} for agent ${granted.owner} in schema ${granted.schema}`);
    if (granted.password !== null) ctx.io.out(`password (shown once): ${granted.password}`);
    ctx.io.out(`connect as: ${granted.url}  (the password goes in the URL as user:password@, or in PGPASSWORD)`);
    ctx.io.out(`it reads and writes only its role's rows (${granted.owner.split('@')[0]}, ${granted.owner.split('@')[0]}@…) and shared ones (owner ""), each change journalled; store settings are read-only to it`);
  },
};
