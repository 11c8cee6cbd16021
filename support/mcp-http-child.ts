/**
 * `mnemo mcp <store> --http …` as a child process: resolves with the URL it prints on stderr once
 * it listens (it binds port 0 unless told otherwise), or rejects with its stderr when it exits first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface McpHttpChild {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

const URL_LINE = /serving .* over HTTP at (http:\/\/\S+)/;

/** Node's own flags (`nodeArgs`, e.g. --cpu-prof, which NODE_OPTIONS refuses) go before the script. */
export function mnemoArgv(repo: string, args: string[], nodeArgs: string[] = []): string[] {
  const tsx = pathToFileURL(join(dirname(createRequire(join(repo, 'package.json')).resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;
  return [...nodeArgs, '--import', tsx, join(repo, 'cli', 'main.ts'), ...args];
}

/** Runs `mnemo <args>` and resolves when it prints its URL. */
export function startMcpHttpChild(repo: string, args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<McpHttpChild> {
  const child = spawn(process.execPath, mnemoArgv(repo, args, nodeArgs), { cwd: repo, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = URL_LINE.exec(stderr);
      if (m) resolve({ url: m[1]!, child, stderr: () => stderr, stop });
    });
    child.once('exit', (code) => reject(new Error(`mnemo exited with ${code} before serving:\n${stderr}`)));
  });
}
