/**
 * A long-lived `mnemo` command (serve, mcp --http) as a child process of a benchmark, run from a
 * checkout's compiled CLI (`bin/mnemo.js`, what users run; compiled first if its sources changed),
 * so one benchmark can drive this checkout and an earlier one alike (`--repo`). Resolves once the
 * child prints what `ready` matches.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildStale } from '../../scripts/lib/stale-build.js';

export interface MnemoChild {
  child: ChildProcess;
  pid: number;
  /** What `ready` matched (its groups). */
  match: RegExpExecArray;
  stderr(): string;
  stop(): Promise<void>;
}

/** Settings a run may vary from the benchmark's own environment (the jobs lane's priority: docs/architecture.md, "Where the engine runs"). */
const PASSED_ON = ['MNEMO_JOBS_NICE'] as const;

export function startMnemoChild(repo: string, args: string[], ready: { stream: 'stdout' | 'stderr'; pattern: RegExp }, env: Record<string, string> = {}): Promise<MnemoChild> {
  const bin = join(repo, 'bin', 'mnemo.js');
  // Never a stale build: what runs is what the checkout says (compiled first when its sources are newer).
  if (!buildStale(repo, ['node']).ok) throw new Error(`${repo}: compiling the CLI failed (npm run build:node shows why)`);
  const passed = Object.fromEntries(PASSED_ON.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
  const child = spawn(process.execPath, [bin, ...args], { cwd: repo, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...passed, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = { stdout: '', stderr: '' };
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let resolved = false;
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]!.on('data', (d: Buffer) => {
        text[stream] += d.toString();
        if (resolved || stream !== ready.stream) return;
        const m = ready.pattern.exec(text[stream]);
        if (m) {
          resolved = true;
          resolve({ child, pid: child.pid!, match: m, stderr: () => text.stderr, stop });
        }
      });
    }
    child.once('exit', (code) => {
      if (!resolved) reject(new Error(`mnemo ${args[0]} exited with ${code} before it was ready:\n${text.stderr}`));
    });
  });
}
