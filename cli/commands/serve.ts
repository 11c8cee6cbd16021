/**
 * `mnemo serve <db>`: browser mode. Serves the built workbench and core/api on 127.0.0.1 and prints
 * the URL with this run's token. `--now` freezes the engine clock (reproducible screens and tests).
 *
 * The engine runs in worker threads behind an engine host (core/host/engine-host.ts): a light one
 * for the views' counts and lists, one for recall and the indexes, one for long jobs. This thread
 * only serves HTTP, so it answers while they work.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fleetStorePath } from '../../core/fleet/fleet.js';
import type { FleetListing } from '../../core/api/contract/index.js';
import { EngineHost } from '../../core/host/engine-host.js';
import { badInput } from '../../core/errors.js';
import { loadLlmEndpoints, type LlmEndpoints } from '../../core/reflect/llm-endpoints.js';
import { rendererDir } from '../../server/paths.js';
import { startServer, type RunningServer } from '../../server/http-server.js';
import { confinedTo } from '../../core/api/path-policy.js';
import { flag, intOpt, printJson, requirePositional, str, strs, type Command, type CommandContext } from '../command.js';
import { untilSignal } from '../signals.js';
import { REPLICA_OPTION, replicaOptions } from '../replica-option.js';
import type { RunPacing } from '../../core/model/run-pacing.js';

/** The lanes of browser mode's engine host (core/host/lanes.ts): one worker each. */
export const SERVE_LANES = { light: 1, index: 1, jobs: 1 } as const;

export async function serveStore(
  ctx: Pick<CommandContext, 'now' | 'io'>,
  db: string | null,
  opts: { port?: number; readonly?: boolean; create?: boolean; dir?: string; fleet?: string; roots?: string[]; llmEndpoints?: LlmEndpoints; runPacing?: RunPacing; replicas?: string[] } = {},
): Promise<{ server: RunningServer; session: EngineHost }> {
  for (const root of opts.roots ?? []) {
    // The operator's own flag: say plainly when it names nothing usable (a typo would silently allow nothing).
    if (!existsSync(root) || !statSync(root).isDirectory()) throw badInput(`--root ${root} is not a folder; name an existing folder of stores`, { field: 'root' });
  }
  const host = await EngineHost.start({
    lanes: SERVE_LANES,
    session: {
      ...(ctx.now !== undefined ? { now: ctx.now } : {}),
      reader: { owner: 'workbench', session_ref: null },
      // --readonly holds for every store this server opens, including a store.open of the same file.
      readonly: opts.readonly ?? false,
      // The defaults unless a caller paces long writes (the e2e tests: a commit long enough to cancel on any machine).
      ...(opts.runPacing ? { runPacing: opts.runPacing } : {}),
      // Generative reflection may use only these (from --llm-config / MNEMO_LLM_*), picked by name.
      llm: (opts.llmEndpoints ?? loadLlmEndpoints()).plain(),
      // People watch this process: it leaves index snapshots to the agents writing beside it (index-snapshots.ts).
      // --replica: the store's reads go to these standbys (docs/postgres.md, "Replicas"); else MNEMO_PG_REPLICAS.
      engine: { watched: true, ...(opts.replicas ? { replicas: opts.replicas } : {}) },
      // Browser mode: the fleet folder comes from --fleet or from fleet.open (validated); no dialog.
      // Paths a client names are confined below, once the served store is known.
      shell: { fleetPathFromApi: true, paths: { kind: 'confined', roots: [], files: [] } },
    },
    // Another process's commits (an agent writing the same store) move the views' generation.
    watch: { lane: 'light', pollMs: 400 },
    onWarning: (m) => ctx.io.err(`warning: ${m}`),
  });
  try {
    let path = db;
    if (opts.fleet) {
      const listing = await host.openFleet<FleetListing>(resolve(opts.fleet));
      if (!path) {
        const first = listing.stores[0];
        if (!first) throw badInput(`the fleet folder ${listing.folder} holds no SQLite store; give a folder of .sqlite stores`, { field: 'fleet' });
        path = fleetStorePath(listing.folder, first.name);
      }
    }
    if (!path) throw badInput('give the store to serve, or --fleet <folder>');
    await host.open(path, { readonly: opts.readonly ?? false, create: opts.create ?? false });
    await host.setPaths(confinedTo([...(opts.roots ?? []), ...(opts.fleet ? [opts.fleet] : [])], [path]));
    const server = await startServer({ door: host, rendererDir: opts.dir ?? rendererDir(), port: opts.port ?? 0 });
    return { server, session: host };
  } catch (err) {
    await host.close();
    // A port someone else holds is the operator's to change: say which, and how.
    if ((err as { code?: string }).code === 'EADDRINUSE') throw badInput(`port ${opts.port} on 127.0.0.1 is in use; choose another with --port, or leave --port out for a free one`, { field: 'port' });
    throw err;
  }
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'browser mode: serve the workbench for a store on 127.0.0.1 (prints the URL with its token)',
  usage: 'mnemo serve <db> [--fleet <folder>] [--root <folder>] [--port P] [--readonly] [--llm-config FILE] [--replica URL]... [--now T] [--json]\n       mnemo serve --fleet <folder> [...]   (opens the folder\'s first store)',
  timed: true,
  options: { port: { type: 'string' }, readonly: { type: 'boolean' }, fleet: { type: 'string' }, root: { type: 'string', multiple: true }, 'llm-config': { type: 'string' }, ...REPLICA_OPTION },
  async run(ctx) {
    const fleet = str(ctx, 'fleet');
    const db = fleet && ctx.positionals[0] === undefined ? null : requirePositional(ctx, 0, 'db', this.usage);
    const port = intOpt(ctx, 'port', 0, [0, 65535]);
    const llmEndpoints = loadLlmEndpoints({ configPath: str(ctx, 'llm-config') });
    const { server, session } = await serveStore(ctx, db, { port, readonly: flag(ctx, 'readonly'), llmEndpoints, roots: strs(ctx, 'root'), ...(fleet ? { fleet } : {}), ...replicaOptions(ctx) });
    if (ctx.json) printJson(ctx, { url: server.openUrl, port: server.port, token: server.token });
    else {
      ctx.io.out(`Mnemo Workbench (browser mode) serving ${session.storePath}${ctx.now !== undefined ? ` with the clock frozen at ${ctx.now}` : ''}`);
      ctx.io.out(`open: ${server.openUrl}`);
      ctx.io.out('Only this machine can connect (127.0.0.1), and only with the token in that URL. Ctrl-C stops.');
    }
    await untilSignal();
    await server.close();
    await session.close();
  },
};
