/**
 * `mnemo mcp`'s jobs worker runs at the agents' priority unless MNEMO_JOBS_NICE says otherwise
 * (core/host/thread-priority.ts, AGENT_HOST_JOBS_NICE): beside agents that recall without pause, a
 * lowered reflect took nearly four times as long and their worst recalls came with it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAgentHost } from '../../cli/mcp/agent-host.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import { freshStorePath, T0 } from '../helpers/agents.js';

const HOLD = pathToFileURL(join(import.meta.dirname, '..', 'helpers', 'engine-hold-extension.ts')).href;
const saved = process.env['MNEMO_JOBS_NICE'];
let host: EngineHost | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  if (saved === undefined) delete process.env['MNEMO_JOBS_NICE'];
  else process.env['MNEMO_JOBS_NICE'] = saved;
});

async function jobsPriority(): Promise<number> {
  host = await startAgentHost({ db: freshStorePath(), now: T0, lanes: { agents: 1, jobs: 1 }, extensions: [HOLD] });
  const answer = (await host.request('jobs', 'test.priority', {})) as { ok: true; value: number };
  return answer.value;
}

describe.runIf(process.platform === 'linux')("mnemo mcp's jobs worker", () => {
  it("runs at the agents' priority by default", async () => {
    delete process.env['MNEMO_JOBS_NICE'];
    expect(await jobsPriority()).toBe(getPriority(0));
  }, 60_000);

  it('is lowered when MNEMO_JOBS_NICE asks', async () => {
    process.env['MNEMO_JOBS_NICE'] = '7';
    expect(await jobsPriority()).toBe(Math.max(getPriority(0), 7));
  }, 60_000);
});
