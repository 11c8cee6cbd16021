/**
 * The delaying TCP proxy of `npm run bench -- backends` (delay-proxy-child.ts) in front of a
 * PostgreSQL server: `url` is the server's URL rewritten to go through it.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DelayProxy {
  /** The server's URL through the proxy (127.0.0.1:port), its other options kept. */
  url: string;
  delayMs: number;
  stop(): void;
}

/** Where a postgres:// URL's server listens: its Unix socket (?host=/dir, port 5432 unless ?port=), or host:port. */
export function pgTarget(url: string): string {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const socketDir = query.get('host');
  if (socketDir?.startsWith('/')) return join(socketDir, `.s.PGSQL.${query.get('port') ?? '5432'}`);
  const m = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/:?]+)(?::(\d+))?/.exec(url);
  if (!m) throw new Error(`cannot tell where ${url} listens`);
  return `${m[1]}:${m[2] ?? '5432'}`;
}

/** The same URL, its server replaced by 127.0.0.1:port (the socket folder and port options dropped). */
function throughProxy(url: string, port: number): string {
  const [head, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.delete('host');
  params.delete('port');
  const rest = head!.replace(/^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)[^/]*/, `$1127.0.0.1:${port}`);
  const q = params.toString();
  return q ? `${rest}?${q}` : rest;
}

export async function startDelayProxy(url: string, delayMsEachWay: number): Promise<DelayProxy> {
  const script = join(fileURLToPath(new URL('.', import.meta.url)), 'delay-proxy-child.ts');
  const child = fork(script, [String(delayMsEachWay), pgTarget(url)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the delay proxy exited with ${code}`)));
  });
  return { url: throughProxy(url, port), delayMs: delayMsEachWay, stop: () => child.kill() };
}
