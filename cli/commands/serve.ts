/**
 * `mnemo serve <db>`: browser mode. Serves the built workbench and core/api on 127.0.0.1 and prints
 * the URL with this run's token. `--now` freezes the engine clock (reproducible screens and tests).
 */
import { ApiSession } from '../../core/api/context.js';
import { rendererDir } from '../../server/paths.js';
import { startServer, type RunningServer } from '../../server/http-server.js';
import { flag, intOpt, printJson, requirePositional, type Command, type CommandContext } from '../command.js';

/** Resolves when the process is asked to stop (Ctrl-C or a service manager). */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function serveStore(
  ctx: Pick<CommandContext, 'now' | 'io'>,
  db: string,
  opts: { port?: number; readonly?: boolean; create?: boolean; dir?: string } = {},
): Promise<{ server: RunningServer; session: ApiSession }> {
  const session = ApiSession.withFrozenClock(ctx.now, {
    reader: { owner: 'workbench' },
    engineOptions: { onWarning: (m) => ctx.io.err(`warning: ${m}`) },
  });
  session.open(db, { readonly: opts.readonly ?? false, create: opts.create ?? false });
  try {
    const server = await startServer({ session, rendererDir: opts.dir ?? rendererDir(), port: opts.port ?? 0 });
    return { server, session };
  } catch (err) {
    session.close();
    throw err;
  }
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'browser mode: serve the workbench for a store on 127.0.0.1 (prints the URL with its token)',
  usage: 'mnemo serve <db> [--port P] [--readonly] [--now T] [--json]',
  timed: true,
  options: { port: { type: 'string' }, readonly: { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const port = intOpt(ctx, 'port', 0, [0, 65535]);
    const { server, session } = await serveStore(ctx, db, { port, readonly: flag(ctx, 'readonly') });
    if (ctx.json) printJson(ctx, { url: server.openUrl, port: server.port, token: server.token });
    else {
      ctx.io.out(`Mnemo Workbench (browser mode) serving ${db}${ctx.now !== undefined ? ` with the clock frozen at ${ctx.now}` : ''}`);
      ctx.io.out(`open: ${server.openUrl}`);
      ctx.io.out('Only this machine can connect (127.0.0.1), and only with the token in that URL. Ctrl-C stops.');
    }
    await untilSignal();
    await server.close();
    session.close();
  },
};
