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
import { inProcessDoor } from './in-process-door.js';

/** Registers the clean-up and returns the function that starts a server (one at a time per test). */
export function fixtureServer(timing: { eventWaitMs: number; pollMs: number }): () => Promise<RunningServer> {
  let server: RunningServer | null = null;
  let session: ApiSession | null = null;
  let door: ReturnType<typeof inProcessDoor> | null = null;
  afterEach(async () => {
    await server?.close();
    door?.close();
    session?.close();
    server = null;
    session = null;
    door = null;
  });
  return async () => {
    const renderer = join(tempDir(), 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>');
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    door = inProcessDoor(session, timing.pollMs);
    server = await startServer({ door, rendererDir: renderer, eventWaitMs: timing.eventWaitMs });
    return server;
  };
}
