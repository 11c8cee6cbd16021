/**
 * Browser mode on a copy of the fixture, with a stand-in renderer, closed after each test: the
 * setup the HTTP door's tests share.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { startServer, type RunningServer } from '../../server/http-server.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';

/** Registers the clean-up and returns the function that starts a server (one at a time per test). */
export function fixtureServer(timing: { eventWaitMs: number; pollMs: number }): () => Promise<RunningServer> {
  let server: RunningServer | null = null;
  let session: ApiSession | null = null;
  afterEach(async () => {
    await server?.close();
    session?.close();
    server = null;
    session = null;
  });
  return async () => {
    const renderer = join(tempDir(), 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>');
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    server = await startServer({ session, rendererDir: renderer, ...timing });
    return server;
  };
}
