/**
 * Browser mode with the engine in its workers: a commit whose HTTP client goes away (the tab
 * closed, the request dropped) is cancelled, and the store is left as it was; the server goes on
 * answering. The commit is paced in one-item batches, so it is still running when the client leaves.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStore } from '../../cli/commands/serve.js';
import type { EngineHost } from '../../core/host/engine-host.js';
import type { RunningServer } from '../../server/http-server.js';
import { TOKEN_HEADER } from '../../server/security.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { dumpStore } from '../../support/reflect.js';

const quiet = { out: () => undefined, err: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let served: { server: RunningServer; session: EngineHost };
let db: string;

beforeAll(async () => {
  db = fixtureCopy();
  served = await serveStore({ now: expected().now, io: quiet }, db, { dir: tempDir(), runPacing: { maxBatchItems: 1, pauseMs: 100 } });
}, 120_000);
afterAll(async () => {
  await served?.server.close();
  await served?.session.close();
});

async function until(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a commit whose browser goes away', () => {
  it('is cancelled and leaves the store as it was', { timeout: 180_000 }, async () => {
    const host = served.session;
    const before = dumpStore(db);
    const plan = (await host.call('review.plan', {})) as { id: string; items: number };
    expect(plan.items).toBeGreaterThan(10);
    // The commit, sent by a client that leaves once it is under way.
    const body = JSON.stringify({ plan_id: plan.id, actions: [] });
    const req = request({ host: '127.0.0.1', port: served.server.port, path: '/api/review.commit', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [TOKEN_HEADER]: served.server.token } });
    req.on('error', () => undefined);
    req.end(body);
    const progress = async () => (await host.call('journal.progress', {})) as { running: boolean; done: number };
    await until('the commit to write its first batches', async () => (await progress()).done >= 2);
    req.destroy();
    await until('the cancelled commit to end', async () => !(await progress()).running);
    expect(dumpStore(db)).toEqual(before);
    const history = (await host.call('journal.history', { limit: 20 })) as { kind: string; state: string }[];
    expect(history.filter((c) => c.kind === 'reflect.apply' && c.state === 'applied')).toEqual([]);
    // The server is still answering.
    expect(await host.invoke('store.info', {})).toMatchObject({ ok: true });
  });
});
