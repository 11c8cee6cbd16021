/** Shared set-up of the long-write tests: a small generated store with its reflection plan, and an agent process beside it. */
import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo } from '../core/demo/generate.js';
import { planReflection } from '../core/reflect/plan.js';
import type { ReflectionPlan } from '../core/reflect/types.js';
import { tempDir } from './fixture.js';
import { openAt } from './reflect.js';

export const NOW = 1_780_000_000;

let cached: { base: string; plan: ReflectionPlan; planPath: string } | null = null;

/** A copy of a generated store (seed 7) and the plan made on it; generated once per test file. */
export async function plannedStore(size = 2000): Promise<{ path: string; plan: ReflectionPlan; planPath: string }> {
  if (!cached) {
    const dir = tempDir('mnemo-long-');
    const base = join(dir, 'base.sqlite');
    const engine = openAt(base, NOW, true);
    generateDemo(engine.store, { size, seed: 7, now: NOW });
    const plan = await planReflection(engine);
    engine.close();
    const planPath = join(dir, 'plan.json');
    writeFileSync(planPath, JSON.stringify(plan));
    cached = { base, plan, planPath };
  }
  const path = join(tempDir('mnemo-long-'), 'store.sqlite');
  copyFileSync(cached.base, path);
  return { path, plan: cached.plan, planPath: cached.planPath };
}

export interface AgentCall {
  op: 'add' | 'recall';
  ok: boolean;
  /** From when the call was due: includes `queued_ms`, the time the process was busy with other work when it came due. */
  ms: number;
  queued_ms?: number;
  at: number;
  error?: string;
  id?: string | null;
}

/**
 * The agent process (helpers/agent-child.ts): `go()` starts its calls, `calls` fills as it reports,
 * `stop()` resolves with its own count. `ops` makes it only add or only recall.
 */
export function startAgent(
  db: string,
  intervalMs: number,
  busyTimeoutMs: number,
  ops: 'both' | 'add' | 'recall' = 'both',
): { calls: AgentCall[]; ready: Promise<void>; go: () => void; stop: () => Promise<{ calls: number; failures: number }>; child: ChildProcess } {
  const child = fork(join(process.cwd(), 'support', 'agent-child.ts'), [db, String(intervalMs), String(busyTimeoutMs), String(NOW), ops], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const calls: AgentCall[] = [];
  let summary: (s: { calls: number; failures: number }) => void = () => {};
  const done = new Promise<{ calls: number; failures: number }>((r) => (summary = r));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: { kind: string } & Record<string, unknown>) => {
      if (m.kind === 'ready') resolve();
      else if (m.kind === 'call') calls.push(m as unknown as AgentCall);
      else if (m.kind === 'summary') summary(m as unknown as { calls: number; failures: number });
    });
    child.on('exit', (code) => reject(new Error(`agent exited with ${code}`)));
  });
  return {
    calls,
    ready,
    child,
    go: () => child.send('go'),
    stop: () => {
      child.send('stop');
      return done;
    },
  };
}
