/**
 * The engine host `mnemo mcp` runs its agents in (core/host/engine-host.ts): agent workers, each
 * holding the memories of the sessions pinned to it (agent-worker.ts), a jobs worker for the long
 * tool (reflect), and over HTTP a light worker that checks credentials. The store is opened (and
 * created if missing) in every worker before the first session.
 */
import { AGENT_HOST_JOBS_NICE, jobsNiceFromEnv } from '../../core/host/thread-priority.js';
import { defaultAgentWorkers, EngineHost } from '../../core/host/engine-host.js';
import type { Lane } from '../../core/host/lanes.js';
import { siblingModule } from '../../core/host/worker-thread.js';

export const AGENT_WORKER = siblingModule(import.meta.url, 'agent-worker');

export interface AgentHostOptions {
  db: string;
  /** Freezes the engine clock (--now). */
  now?: number;
  /** Workers for the agents (default: defaultAgentWorkers(), more for a PostgreSQL store). */
  agents?: number;
  /** A light worker for credential checks (HTTP). */
  light?: boolean;
  /** Other lanes than these (tests run every lane's calls in one worker: a missing lane's go to the nearest, lanes.ts). */
  lanes?: Partial<Record<Lane, number>>;
  /** More worker extensions (tests). */
  extensions?: string[];
  onWarning?: (message: string) => void;
  /** --replica: standbys the workers' stores read from (absent: MNEMO_PG_REPLICAS). */
  replicas?: string[];
}

export async function startAgentHost(opts: AgentHostOptions): Promise<EngineHost> {
  const host = await EngineHost.start({
    lanes: opts.lanes ?? { agents: opts.agents ?? defaultAgentWorkers(/^postgres(ql)?:\/\//i.test(opts.db)), jobs: 1, ...(opts.light ? { light: 1 } : {}) },
    session: { ...(opts.now !== undefined ? { now: opts.now } : {}), reader: { owner: 'mcp', session_ref: null }, ...(opts.replicas ? { engine: { replicas: opts.replicas } } : {}) },
    extensions: [AGENT_WORKER, ...(opts.extensions ?? [])],
    // The long work here is an agent's own reflect beside peers that recall: left at their
    // priority, it ends sooner, and its writes disturb them for less time (AGENT_HOST_JOBS_NICE).
    jobsNice: jobsNiceFromEnv(process.env, AGENT_HOST_JOBS_NICE),
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
  });
  try {
    await host.open(opts.db, { create: true });
  } catch (err) {
    await host.close();
    throw err;
  }
  return host;
}
