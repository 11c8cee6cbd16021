/**
 * Browser mode's server stalls while a recall on a PostgreSQL store waits on its synchronous
 * bridge. Node closes a keep-alive connection that has been idle past its timeout in its timers,
 * before it reads a request that arrived during the stall; a client that sent one on that
 * connection got "fetch failed" (seen three times in a PostgreSQL fleet run). The client here is
 * another process (fetch, as the fleet's viewer and Node clients use), so it runs while this
 * process's event loop is held.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixtureServer } from '../helpers/test-server.js';

const start = fixtureServer({ eventWaitMs: 500, pollMs: 100 });

/** Calls store.info, waits, calls it again on the kept connection; prints what each gave. */
const CLIENT = `
const [url, token] = process.argv.slice(-2);
const call = () => fetch(url + 'api/store.info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mnemo-token': token }, body: '{}' }).then((r) => r.status);
console.log('first ' + (await call()));
await new Promise((r) => setTimeout(r, 2000));
try { console.log('second ' + (await call())); } catch (err) { console.log('second failed ' + (err.cause?.code ?? err.message)); }
`;

/** Holds this process's event loop as a long synchronous recall does. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* busy, as a recall waiting on Atomics.wait is */
  }
}

describe('browser mode keeps idle connections through a stall of its event loop', () => {
  it('answers a request sent on a kept-alive connection while the server was held for 7 s', async () => {
    const server = await start();
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, server.url, server.token], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let held = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // In an I/O callback, as a request handler's recall holds it: the loop's next turn runs the
      // idle timeouts that fell due before it reads what arrived.
      if (!held && out.includes('first')) {
        held = true;
        holdEventLoop(7_000);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toContain('first 200');
    expect(out.trim().split('\n').at(-1)).toBe('second 200');
  }, 30_000);
});
